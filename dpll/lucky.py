"""Lucky phases: before the CDCL search, try a few fixed ways of assigning everything.

Some formulas are satisfied by deciding every variable the same way, in numbering order
or its reverse, and propagating: every satisfiable Horn formula by deciding them false,
and SATLIB's flat graph colourings, whose variables are numbered vertex by vertex, by
any of the four ways. CaDiCaL tries these first ("lucky.cpp"; Kissat does the same).
Each attempt stops at its first conflict and is undone, so a failed one costs at most
one descent of the search and leaves no learnt clause, activity or phase behind (only
the watch lists it moved, as any propagation does).

The attempts, in order: every variable false in numbering order, true in numbering
order, false in reverse order, true in reverse order. CaDiCaL's two further attempts,
which make one literal of each clause true in clause order, are left out: in Python
their scan of every clause cost 75 ms on bw_large.c (a 230 ms solve) and solved none
of the SATLIB families of bench/solve.py (see bench/README.md, "Lucky phases").

Works on a `dpll.cdcl.CDCLEngine` at decision level 0 with nothing left to propagate;
literals are its codes (``2*v + sign``, sign 1 = negative).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dpll.cdcl import CDCLEngine

_POLL = 2048  # decisions between calls of the engine's stop check


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
    """Decide each unassigned variable of ``variables`` with ``sign``; False on a conflict."""
    val = engine.val
    stop = engine.stop_check
    quiet = 0
    for v in variables:
        if val[2 * v] == 0:
            if not _decide(engine, 2 * v | sign):
                return False
            quiet += 1
            if quiet == _POLL:
                quiet = 0
                if stop is not None and stop():
                    raise _Stopped
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


def lucky(engine: CDCLEngine) -> bool | None:
    """Try each lucky assignment in turn: True when one satisfies the formula (the
    engine's trail then holds it, every variable assigned), False when none does or the
    stop check fired (then ``engine.stopped`` is set); either way the engine is back at
    level 0 as before."""
    n = engine.nvars
    attempts = (
        lambda: _by_number(engine, range(1, n + 1), 1),
        lambda: _by_number(engine, range(1, n + 1), 0),
        lambda: _by_number(engine, range(n, 0, -1), 1),
        lambda: _by_number(engine, range(n, 0, -1), 0),
    )
    for attempt in attempts:
        try:
            if attempt():
                return True
        except _Stopped:
            engine.stopped = True
            _undo(engine)
            return False
        _undo(engine)
    return False
