"""Lucky phases: before the CDCL search, try a few fixed ways of assigning everything.

Some formulas are satisfied by giving every variable the same value: every satisfiable
Horn formula by making them all false, and SATLIB's flat30, flat50 and flat100 graph
colourings, whose variables are numbered vertex by vertex, by deciding them false (or
true) from the last variable down, with propagation (flat75 and flat125-200 permute their
vertices, and are not). CaDiCaL tries such assignments first ("lucky.cpp"; Kissat does
the same). Each attempt stops at its first conflict and is undone, leaving no learnt
clause, activity or phase behind (only the watch lists it moved, as any propagation does).

The attempts, in order: all false when every clause has a free negative literal (or is
true at level 0), all true when every clause has a free positive one (two scans, no
propagation); then every variable decided false, then true, from the highest number down.

Left out of CaDiCaL's list: deciding them in numbering order (up), because the engine
keeps each long clause's literals sorted and watches its first two: deciding up falsifies
them first and every watch move rescans the false literals before it, O(length^2) a
clause (3,000 clauses of 255 literals: 4 s against 0.05 s for the search; deciding down
reaches the watches last, O(length)); and the two attempts that make one literal of each
clause true in clause order, whose Python scan of every clause cost 75 ms on bw_large.c
(a 230 ms solve) and solved none of the SATLIB families of bench/solve.py (see
bench/README.md, "Lucky phases").

Works on a `dpll.cdcl.CDCLEngine` at decision level 0 with nothing left to propagate;
literals are its codes (``2*v + sign``, sign 1 = negative).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dpll.cdcl import CDCLEngine

class _Stopped(Exception):
    """The engine's stop check fired during an attempt."""


def _decide(engine: CDCLEngine, lit: int) -> bool:
    """Decide ``lit`` on a new level and propagate; False on a conflict."""
    engine.trail_lim.append(len(engine.trail))
    engine.n_decisions += 1
    engine._enqueue(lit, None)
    conflict = engine.propagate()
    if engine.stopped:
        raise _Stopped
    return conflict is None


def _by_number(engine: CDCLEngine, variables: Iterable[int], sign: int) -> bool:
    """Decide each unassigned variable of ``variables`` with ``sign``; False on a conflict.

    A limited solve polls its stop check at every decision, as CaDiCaL does here: one
    decision may propagate at length, and the engine's own poll counts propagated
    literals, not the watch moves that can make up most of the work."""
    val = engine.val
    stop = engine.stop_check
    for v in variables:
        if val[2 * v] == 0:
            if not _decide(engine, 2 * v | sign):
                return False
            if stop is not None and stop():
                raise _Stopped
    return True


def _trivially(engine: CDCLEngine, sign: int) -> bool:
    """When every clause is true, or has a free literal of ``sign`` (1: negative), assign
    every free variable that way on one level, with nothing to propagate: True. Else
    False, having assigned nothing. (CaDiCaL's first two lucky checks: a scan, which
    stops at the first clause that fails it.)"""
    val = engine.val
    for clause in engine.clauses:
        for lit in clause:
            value = val[lit]
            if value == 1 or (value == 0 and lit & 1 == sign):
                break
        else:
            return False
    bins = engine.bins
    for a in range(2, 2 * engine.nvars + 2):
        partners = bins[a]
        if partners:
            value = val[a]
            if value == 1 or (value == 0 and a & 1 == sign):
                continue
            for b in partners:
                value = val[b]
                if value != 1 and (value != 0 or b & 1 != sign):
                    return False
    engine.trail_lim.append(len(engine.trail))
    for v in range(1, engine.nvars + 1):
        if val[2 * v] == 0:
            engine.n_decisions += 1
            engine._enqueue(2 * v | sign, None)
    engine.qhead = len(engine.trail)
    return True


def _undo(engine: CDCLEngine) -> None:
    """Back to level 0 without `cancel_until`'s side effects: an attempt must not save
    its values as phases nor push its variables into the decision heap."""
    trail = engine.trail
    if not engine.trail_lim:
        return
    lim = engine.trail_lim[0]
    val = engine.val
    for lit in trail[lim:]:
        val[lit] = 0
        val[lit ^ 1] = 0
    del trail[lim:]
    engine.trail_lim.clear()
    engine.qhead = lim


def lucky(engine: CDCLEngine) -> bool:
    """Try each lucky assignment in turn: True when one satisfies the formula (the
    engine's trail then holds it, every variable assigned), False when none does or the
    stop check fired (then ``engine.stopped`` is set); either way the engine is back at
    level 0 as before."""
    n = engine.nvars
    attempts = (
        lambda: _trivially(engine, 1),
        lambda: _trivially(engine, 0),
        lambda: _by_number(engine, range(n, 0, -1), 1),
        lambda: _by_number(engine, range(n, 0, -1), 0),
    )
    stop = engine.stop_check
    for attempt in attempts:
        if stop is not None and stop():  # (an interrupt given before the call, too)
            engine.stopped = True
            return False
        try:
            if attempt():
                return True
        except _Stopped:
            engine.stopped = True
            _undo(engine)
            return False
        _undo(engine)
    return False
