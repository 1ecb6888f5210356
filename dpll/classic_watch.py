"""The fast classic DPLL search: two watched literals, the pure-literal rule, chronological flips.

This is the textbook Davis–Putnam–Logemann–Loveland procedure without
learning, written with MiniSat's machinery (SymPy's ``dpll2`` without
learning and Knuth's Algorithm B are the same algorithm class):

* literal codes ``2*v + sign``, a value array indexed by code, a ``trail``
  with ``trail_lim`` per decision level and a propagation head ``qhead``;
* unit propagation with two watched literals (watch lists compacted in place);
* the pure-literal rule, from counts of each literal's occurrences in the
  clauses not yet satisfied, kept up to date incrementally: when a dequeued
  literal satisfies a clause for the first time, the counts of that clause's
  literals drop, and a count reaching zero makes the opposite literal a pure
  candidate (undone symmetrically on backtracking);
* success as soon as every clause is satisfied (unassigned variables are then
  set true);
* chronological backtracking: a conflict abandons the most recent decision
  ``x`` and asserts ``-x`` one level below (a "flip", which is not a decision).

The branching heuristics live in `dpll.heuristics`; the one asked for is
bound once at construction.

Measured cost of the pure-literal rule (its bookkeeping runs for every
propagated literal): with ``jw``, medians over five seeds on the first ten
SATLIB files, uf100 0.025 s with it against 0.012 s without, uuf100 0.13 s
against 0.06 s, flat200 0.6 s against 0.2 s. It stays, because the
textbook procedure the ``classic`` mode promises includes it; even so this
search is 3-12x faster than SymPy's dpll2 on those families (bench/solve.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from dpll.classic_base import (
    FLIPPED,
    POLL_DECISIONS,
    POLL_PROPAGATIONS,
    PURE,
    SearchBase,
    core_from_mask,
    lit_of,
)
from dpll.heuristics import SCANNING_HEURISTICS, make_picker, start_cursor

EMPTY: tuple[()] = ()
"""Shared stand-in for the empty list of a literal no clause uses yet (saves memory)."""

if TYPE_CHECKING:
    from dpll.engine import ProofSink


class WatchSearch(SearchBase):
    """Classic DPLL over watched literals for the `random`, `two-clause`, `jw`, `dlis` heuristics.

    Between solve calls nothing is assigned: each call starts from the root
    with the unit clauses, so clauses can be added freely in between.
    """

    def __init__(self, heuristic: str, seed: int, proof: ProofSink | None) -> None:
        super().__init__(proof)
        self.nvars = 0
        self.val: list[int] = [0, 0]
        self.reason: list[object] = [None]
        self.flipmask: list[int] = [0]
        self.watches: list[list[list[int]]] = [[], []]
        self.occ: list[list[int]] = [[], []]
        self.clauses: list[list[int]] = []
        self.units: list[int] = []
        self.sat: list[int] = []
        self.sat_stack: list[int] = []
        self.sat_lim: list[int] = []
        self.bin_watches: list[list[int]] = [[], []]
        self.cnt: list[int] = [0, 0]
        self.pure_queue: list[int] = []
        self.trail: list[int] = []
        self.trail_lim: list[int] = []
        self.qhead = 0
        self.ok = True
        self.rng = random.Random(seed)
        self.pick = make_picker(heuristic, self)
        self.heuristic = heuristic
        self.poll_every = 1 if heuristic in SCANNING_HEURISTICS else POLL_DECISIONS
        self.static_order: list[int] | None = None
        self.cursor = 0
        self.cursor_lim: list[int] = []
        self.random_pool: list[int] = []  # the random heuristic's draws (`start_cursor`)

    # -- building -----------------------------------------------------------------
    def ensure_vars(self, nvars: int) -> None:
        """Make variables 1..nvars known (their lists are made when a clause uses them)."""
        if nvars <= self.nvars:
            return
        grow = nvars - self.nvars
        self.val.extend([0] * (2 * grow))
        self.cnt.extend([0] * (2 * grow))
        self.reason.extend([None] * grow)
        self.flipmask.extend([0] * grow)
        self.watches.extend([EMPTY] * (2 * grow))
        self.bin_watches.extend([EMPTY] * (2 * grow))
        self.occ.extend([EMPTY] * (2 * grow))
        self.nvars = nvars

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        """Add clauses (DIMACS literals, already checked).

        Repeated literals are dropped, tautologies ignored, unit clauses kept
        aside (asserted at the root of every solve), binary clauses go to
        ``bin_watches``, longer ones watch their first two literals.
        """
        store = self.clauses
        occ = self.occ
        watches = self.watches
        bin_watches = self.bin_watches
        self.static_order = None
        for lits in clauses:
            codes = [(lit << 1) if lit > 0 else ((-lit) << 1) | 1 for lit in lits]
            size = len(codes)
            if size > 1 and len(set(codes)) < size:
                codes = list(dict.fromkeys(codes))
                size = len(codes)
            if size == 0:
                if self.ok:
                    self.log_refuted()  # as cdcl does: the proof ends with the empty clause
                self.ok = False
                continue
            top = max(codes) >> 1
            if top > self.nvars:
                self.ensure_vars(top)
                occ = self.occ
                watches = self.watches
                bin_watches = self.bin_watches
            if size == 1:
                self.units.append(codes[0])
                continue
            if size == 2:
                a, b = codes
                if a ^ b == 1:
                    continue  # x or -x: a tautology constrains nothing
                for lit, other in ((a, b), (b, a)):
                    ws = bin_watches[lit]
                    if ws is EMPTY:
                        bin_watches[lit] = [other]
                    else:
                        ws.append(other)
            else:
                if len({c >> 1 for c in codes}) < size:
                    continue  # holds some x and -x
                for lit in codes:
                    if watches[lit] is EMPTY:
                        watches[lit] = []
                watches[codes[0]].append(codes)
                watches[codes[1]].append(codes)
            index = len(store)
            store.append(codes)
            for lit in codes:
                o = occ[lit]
                if o is EMPTY:
                    occ[lit] = [index]
                else:
                    o.append(index)

    def equivalent_clauses(self) -> list[list[int]]:
        """The clauses kept, with the unit clauses (kept aside) first."""
        rest = super().equivalent_clauses()
        return rest if not self.ok else [[lit_of(u)] for u in self.units] + rest

    # -- the search ---------------------------------------------------------------
    def _reset(self) -> None:
        """Fresh counts for a new solve call (nothing is assigned between calls)."""
        self.sat = [0] * len(self.clauses)
        self.sat_stack = []
        self.sat_lim = []
        cnt = self.cnt = [len(o) for o in self.occ]
        # the literals pure from the start; later ones are queued as counts drop
        self.pure_queue = [lit ^ 1 for lit in range(2, len(cnt)) if not cnt[lit] and cnt[lit ^ 1]]
        self.decisions = []
        self.cursor = start_cursor(self.heuristic, self)
        self.cursor_lim = []

    def _search(self, assume: list[int], assumptions: list[int]) -> bool:
        stats = self.stats
        val = self.val
        trail = self.trail
        trail_lim = self.trail_lim
        decisions = self.decisions
        reason = self.reason
        pure_queue = self.pure_queue
        pick = self.pick
        poll_every = self.poll_every
        nassume = len(assume)
        track = nassume > 0
        abit = {}
        if track:
            for i, a in enumerate(assume):
                abit.setdefault(a >> 1, 1 << i)
        for u in self.units:
            if val[u] == -1:
                self.log_refuted()
                self.ok = False
                return False
            if val[u] == 0:
                self._assign(u, [u])
        since_poll = 0
        while True:
            confl = self._propagate()
            if confl is not None:
                stats["conflicts"] += 1
                self.poll()
                mask = self._mask(confl, abit) if track else 0
                if not self.backtrack(mask, nassume, assumptions):
                    return False
                continue
            level = len(trail_lim)
            if level < nassume:
                a = assume[level]
                if val[a] == -1:
                    mask = self._mask([a], abit) | (1 << level)
                    self.core_lits = core_from_mask(mask, assumptions)
                    return False
                trail_lim.append(len(trail))
                self.cursor_lim.append(self.cursor)
                self.sat_lim.append(len(self.sat_stack))
                if val[a] == 1:
                    decisions.append(-1)
                else:
                    decisions.append(a)
                    self._assign(a, None)
                continue
            if pure_queue:
                self._assign_pure_literals()
            if len(self.sat_stack) == len(self.clauses):
                self.model_lits = [-v if val[2 * v] == -1 else v for v in range(1, self.nvars + 1)]
                return True
            lit = pick()
            since_poll += 1
            if since_poll >= poll_every:
                since_poll = 0
                self.poll()
            stats["decisions"] += 1
            stats["splits"] += 1
            trail_lim.append(len(trail))
            self.cursor_lim.append(self.cursor)
            self.sat_lim.append(len(self.sat_stack))
            decisions.append(lit)
            val[lit] = 1
            val[lit ^ 1] = -1
            trail.append(lit)
            reason[lit >> 1] = None

    def _assign(self, lit: int, why: object) -> None:
        """Make ``lit`` true on the current level (it is queued for propagation)."""
        val = self.val
        val[lit] = 1
        val[lit ^ 1] = -1
        self.trail.append(lit)
        self.reason[lit >> 1] = why

    def _assign_pure_literals(self) -> None:
        """Set every pure candidate that is still pure (the queue is empty afterwards).

        Precondition: propagation is complete (``qhead == len(trail)``). A pure
        literal satisfies clauses only, so it needs no watch scan; its counts
        are updated at once and the head moves past it.
        """
        val = self.val
        cnt = self.cnt
        trail = self.trail
        reason = self.reason
        queue = self.pure_queue
        while queue:
            lit = queue.pop()
            if val[lit] or cnt[lit ^ 1] or not cnt[lit]:
                continue
            val[lit] = 1
            val[lit ^ 1] = -1
            trail.append(lit)
            reason[lit >> 1] = PURE
            self.qhead += 1
            self._satisfy(lit)

    def _satisfy(self, p: int) -> None:
        """Count ``p`` true in the clauses holding it; new pure candidates are queued."""
        sat = self.sat
        cnt = self.cnt
        val = self.val
        clauses = self.clauses
        queue = self.pure_queue
        stack = self.sat_stack
        for ci in self.occ[p]:
            if not sat[ci]:
                sat[ci] = 1
                stack.append(ci)
                for q in clauses[ci]:
                    k = cnt[q] - 1
                    cnt[q] = k
                    if k == 0 and not val[q] and cnt[q ^ 1]:
                        queue.append(q ^ 1)

    def _propagate(self) -> list[int] | None:
        """Propagate the trail from ``qhead``; return a conflicting clause or None.

        For each dequeued literal ``p``: the clauses it satisfies first are
        marked (and their literals' counts drop), then the clauses watching
        ``-p`` look for a new watch, become unit, or conflict. Binary clauses
        live in ``bin_watches`` as the other literal alone, and the reason of
        a literal they imply is the false literal's code (an int).

        Postcondition without conflict: ``qhead == len(trail)``. After a
        conflict ``qhead`` stops just past the literal that found it.
        """
        trail = self.trail
        val = self.val
        watches = self.watches
        bin_watches = self.bin_watches
        reason = self.reason
        occ = self.occ
        sat = self.sat
        stack = self.sat_stack
        cnt = self.cnt
        clauses = self.clauses
        queue = self.pure_queue
        qhead = self.qhead
        start = qhead
        poll_at = qhead + POLL_PROPAGATIONS
        try:
            while qhead < len(trail):
                if qhead >= poll_at:
                    self.stats["propagations"] += qhead - start
                    start = qhead
                    poll_at = qhead + POLL_PROPAGATIONS
                    self.poll()
                p = trail[qhead]
                qhead += 1
                for ci in occ[p]:
                    if not sat[ci]:
                        sat[ci] = 1
                        stack.append(ci)
                        for q in clauses[ci]:
                            k = cnt[q] - 1
                            cnt[q] = k
                            if k == 0 and not val[q] and cnt[q ^ 1]:
                                queue.append(q ^ 1)
                false_lit = p ^ 1
                for other in bin_watches[false_lit]:
                    v = val[other]
                    if v == 1:
                        continue
                    if v == -1:
                        return [other, false_lit]
                    val[other] = 1
                    val[other ^ 1] = -1
                    trail.append(other)
                    reason[other >> 1] = false_lit
                ws = watches[false_lit]
                if not ws:
                    continue
                i = j = 0
                n = len(ws)
                while i < n:
                    c = ws[i]
                    i += 1
                    first = c[0]
                    if first == false_lit:
                        first = c[1]
                        c[0] = first
                        c[1] = false_lit
                    if val[first] == 1:
                        ws[j] = c
                        j += 1
                        continue
                    for k in range(2, len(c)):
                        other = c[k]
                        if val[other] != -1:
                            c[1] = other
                            c[k] = false_lit
                            watches[other].append(c)
                            break
                    else:
                        ws[j] = c
                        j += 1
                        if val[first] == -1:
                            ws[j:i] = []
                            return c
                        val[first] = 1
                        val[first ^ 1] = -1
                        trail.append(first)
                        reason[first >> 1] = c
                del ws[j:]
            return None
        finally:
            self.qhead = qhead
            self.stats["propagations"] += qhead - start

    def _cancel_until(self, level: int) -> None:
        """Undo every level above ``level``: values, satisfied marks and counts."""
        trail_lim = self.trail_lim
        if len(trail_lim) <= level:
            return
        self._undo_to(trail_lim[level], self.sat_lim[level])
        del trail_lim[level:]
        del self.sat_lim[level:]
        del self.decisions[level:]
        self.cursor = self.cursor_lim[level]
        del self.cursor_lim[level:]
        self.pure_queue.clear()

    def _clear(self) -> None:
        """Unassign everything; counts and satisfied marks are rebuilt by the next `_reset`."""
        val = self.val
        for lit in self.trail:
            val[lit] = 0
            val[lit ^ 1] = 0
        self.trail.clear()
        self.qhead = 0
        for stack in (self.trail_lim, self.sat_lim, self.cursor_lim, self.decisions):
            stack.clear()
        self.pure_queue.clear()

    def _undo_to(self, lim: int, mark: int) -> None:
        """Unassign ``trail[lim:]`` and unmark the clauses in ``sat_stack[mark:]``."""
        trail = self.trail
        val = self.val
        for i in range(lim, len(trail)):
            p = trail[i]
            val[p] = 0
            val[p ^ 1] = 0
        del trail[lim:]
        if self.qhead > lim:
            self.qhead = lim
        stack = self.sat_stack
        sat = self.sat
        cnt = self.cnt
        clauses = self.clauses
        for ci in stack[mark:]:
            sat[ci] = 0
            for q in clauses[ci]:
                cnt[q] += 1
        del stack[mark:]

    def _mask(self, confl: list[int], abit: dict[int, int]) -> int:
        """The assumptions (as bits) that the falsity of ``confl``'s literals depends on."""
        val = self.val
        reason = self.reason
        flipmask = self.flipmask
        mask = 0
        seen = set()
        stack = [q ^ 1 for q in confl if val[q] == -1]
        while stack:
            t = stack.pop()
            v = t >> 1
            if v in seen:
                continue
            seen.add(v)
            r = reason[v]
            if r is None:
                mask |= abit.get(v, 0)
            elif r.__class__ is list:
                for q in r:
                    if q != t:
                        stack.append(q ^ 1)
            elif r >= 0:
                stack.append(r ^ 1)
            elif r == FLIPPED:
                mask |= flipmask[v]
        return mask
