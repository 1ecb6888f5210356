"""The `course` DPLL: the course's Davis–Putnam pseudo-code order, exactly, without recursion.

The course (NYU CSCI-UA 0472, the assignment in ``../shared/seeds/002_*``)
gives ``dp1`` as a loop of easy cases before one split::

    loop:
      if S is empty:                      success; atoms still unbound := TRUE
      else if some clause in S is empty:  failure
      else if S has a pure literal L:     assign L; delete the clauses holding L
      else if S has a unit clause {L}:    assign L; propagate
      else: break
    pick an unbound atom A; try A := TRUE, then A := FALSE

made deterministic the way the course's reference outputs are: the pure
literal of the *smallest atom* first, else the *first unit clause in clause
order*, else the *smallest unbound atom*, TRUE first. One refinement that
changes no valuation: atoms that no unsatisfied clause mentions are never
split on (both halves of such a split see the same clauses, so the second
half could only repeat the failure of the first; at success they become TRUE
either way).

Instead of copying clause sets, each clause keeps the number of its true and
of its unassigned literals, each literal the number of unsatisfied clauses
holding it; a min-heap of candidate atoms gives the smallest pure literal and
a min-heap of clause indices the first unit clause. Assignments sit on a trail
with one level per split, and a failure flips the most recent split
(chronological backtracking), so depth is bounded by memory, not by Python's
recursion limit. ``splits`` counts calls of ``dp1`` as seed 003 counts DPLL
calls: the root, then one per branch tried.
"""

from __future__ import annotations

from collections.abc import Iterable
from heapq import heappop, heappush
from typing import TYPE_CHECKING

from dpll.classic_base import (
    FLIPPED,
    POLL_PROPAGATIONS,
    PURE,
    SearchBase,
    core_from_mask,
)

if TYPE_CHECKING:
    from dpll.engine import ProofSink

EMPTY: tuple[()] = ()
"""Shared stand-in for the empty list of a literal no clause uses yet (saves memory)."""


class CourseSearch(SearchBase):
    """Classic DPLL in the course's order (the `course` heuristic).

    Clauses keep their literal order (duplicates dropped); tautologies are
    kept, since a clause ``{x, -x}`` stops ``x`` from being pure in the
    course's procedure. Nothing is assigned between solve calls.
    """

    def __init__(self, proof: ProofSink | None) -> None:
        super().__init__(proof)
        self.nvars = 0
        self.clauses: list[list[int]] = []
        self.occ: list[list[int]] = [[], []]
        self.val: list[int] = [0, 0]
        self.reason: list[int | None] = [None]
        self.flipmask: list[int] = [0]
        self.trail: list[int] = []
        self.trail_lim: list[int] = []
        self.cursor_lim: list[int] = []
        self.ok = True

    # -- building -----------------------------------------------------------------
    def ensure_vars(self, nvars: int) -> None:
        """Make variables 1..nvars known (their lists are made when a clause uses them)."""
        if nvars <= self.nvars:
            return
        grow = nvars - self.nvars
        self.val.extend([0] * (2 * grow))
        self.reason.extend([None] * grow)
        self.flipmask.extend([0] * grow)
        self.occ.extend([EMPTY] * (2 * grow))
        self.nvars = nvars

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        """Add clauses (DIMACS literals, already checked), repeated literals dropped."""
        store = self.clauses
        occ = self.occ
        for lits in clauses:
            codes = [(lit << 1) if lit > 0 else ((-lit) << 1) | 1 for lit in lits]
            size = len(codes)
            if size > 1 and len(set(codes)) < size:
                codes = list(dict.fromkeys(codes))
            elif size == 0:
                if self.ok:
                    self.log_refuted()  # as cdcl does: the proof ends with the empty clause
                self.ok = False
                continue
            top = max(codes) >> 1
            if top > self.nvars:
                self.ensure_vars(top)
                occ = self.occ
            index = len(store)
            store.append(codes)
            for lit in codes:
                o = occ[lit]
                if o is EMPTY:
                    occ[lit] = [index]
                else:
                    o.append(index)

    # -- the search ---------------------------------------------------------------
    def _clear(self) -> None:
        """Unassign everything; the counters are rebuilt by the next `_reset`."""
        val = self.val
        for lit in self.trail:
            val[lit] = 0
            val[lit ^ 1] = 0
        self.trail.clear()
        self.trail_lim.clear()
        self.cursor_lim.clear()
        self.decisions.clear()

    def _reset(self) -> None:
        """Counters for a fresh root: nothing assigned, every clause unsatisfied."""
        clauses = self.clauses
        self.nsat = [0] * len(clauses)
        self.nfree = [len(c) for c in clauses]
        self.cnt = [len(o) for o in self.occ]
        self.nunsat = len(clauses)
        self.empty: list[int] = []
        self.units = [i for i, c in enumerate(clauses) if len(c) == 1]
        cnt = self.cnt
        self.pures = [
            v for v in range(1, self.nvars + 1) if (cnt[2 * v] == 0) != (cnt[2 * v + 1] == 0)
        ]
        self.decisions = []
        self.cursor = 1

    def _search(self, assume: list[int], assumptions: list[int]) -> bool:
        stats = self.stats
        val = self.val
        cnt = self.cnt
        trail_lim = self.trail_lim
        clauses = self.clauses
        nvars = self.nvars
        nassume = len(assume)
        abit: dict[int, int] = {}
        for i, a in enumerate(assume):
            abit.setdefault(a >> 1, 1 << i)
        since_poll = 0
        while True:
            since_poll += 1
            if since_poll >= POLL_PROPAGATIONS:
                since_poll = 0
                self.poll()
            if self.empty:
                stats["conflicts"] += 1
                self.poll()
                mask = self._mask(self.empty[-1], abit) if nassume else 0
                if not self.backtrack(mask, nassume, assumptions):
                    return False
                continue
            level = len(trail_lim)
            placing = level < nassume  # assumptions first; no pure literal before them
            if not placing:
                if self.nunsat == 0:
                    self.model_lits = [-v if val[2 * v] == -1 else v for v in range(1, nvars + 1)]
                    return True
                lit = self._pure_literal()
                if lit:
                    self._assign(lit, PURE)
                    continue
            ci = self._unit_clause()
            if ci >= 0:
                for lit in clauses[ci]:
                    if not val[lit]:
                        self._assign(lit, ci)
                        break
                continue
            if placing:
                a = assume[level]
                if val[a] == -1:
                    mask = self._lit_mask([a ^ 1], abit) | (1 << level)
                    self.core_lits = core_from_mask(mask, assumptions)
                    return False
                self._new_level(-1 if val[a] == 1 else a)
                if val[a] == 0:
                    self._assign(a, None)
                continue
            # the split: the smallest unbound atom still in an unsatisfied clause, TRUE first
            v = self.cursor
            while val[2 * v] or not (cnt[2 * v] or cnt[2 * v + 1]):
                v += 1
            self.cursor = v
            stats["decisions"] += 1
            stats["splits"] += 1
            self._new_level(2 * v)
            self._assign(2 * v, None)

    def _new_level(self, decision: int) -> None:
        self.trail_lim.append(len(self.trail))
        self.cursor_lim.append(self.cursor)
        self.decisions.append(decision)

    def _pure_literal(self) -> int:
        """The pure literal of the smallest atom (its code), or 0 if there is none."""
        pures = self.pures
        val = self.val
        cnt = self.cnt
        while pures:
            v = pures[0]
            pos = cnt[2 * v]
            neg = cnt[2 * v + 1]
            if not val[2 * v] and (pos == 0) != (neg == 0):
                return 2 * v if pos else 2 * v + 1
            heappop(pures)
        return 0

    def _unit_clause(self) -> int:
        """The index of the first unit clause in clause order, or -1 if there is none."""
        units = self.units
        nsat = self.nsat
        nfree = self.nfree
        while units:
            ci = units[0]
            if nsat[ci] == 0 and nfree[ci] == 1:
                return ci
            heappop(units)
        return -1

    def _assign(self, lit: int, why: int | None) -> None:
        """Make ``lit`` true and update every counter its clauses keep."""
        val = self.val
        val[lit] = 1
        val[lit ^ 1] = -1
        self.trail.append(lit)
        self.reason[lit >> 1] = why
        self.stats["propagations"] += 1
        nsat = self.nsat
        nfree = self.nfree
        cnt = self.cnt
        clauses = self.clauses
        occ = self.occ
        for ci in occ[lit]:
            nfree[ci] -= 1
            s = nsat[ci]
            nsat[ci] = s + 1
            if s == 0:
                self.nunsat -= 1
                for q in clauses[ci]:
                    k = cnt[q] - 1
                    cnt[q] = k
                    if k == 0 and not val[q] and cnt[q ^ 1]:
                        heappush(self.pures, q >> 1)
        for ci in occ[lit ^ 1]:
            f = nfree[ci] - 1
            nfree[ci] = f
            if nsat[ci] == 0:
                if f == 1:
                    heappush(self.units, ci)
                elif f == 0:
                    self.empty.append(ci)

    def _cancel_until(self, level: int) -> None:
        """Undo every level above ``level``; no pure literal or unit clause is left pending."""
        trail_lim = self.trail_lim
        if len(trail_lim) <= level:
            return
        self._undo_to(trail_lim[level])
        del trail_lim[level:]
        del self.decisions[level:]
        self.cursor = self.cursor_lim[level]
        del self.cursor_lim[level:]
        # The state is again the one just before that split, which had no easy case.
        self.pures.clear()
        self.units.clear()

    def _undo_to(self, lim: int) -> None:
        """Unassign ``trail[lim:]`` in reverse order, restoring every counter."""
        trail = self.trail
        val = self.val
        nsat = self.nsat
        nfree = self.nfree
        cnt = self.cnt
        clauses = self.clauses
        occ = self.occ
        empty = self.empty
        for i in range(len(trail) - 1, lim - 1, -1):
            lit = trail[i]
            for ci in occ[lit ^ 1]:
                f = nfree[ci]
                nfree[ci] = f + 1
                if f == 0 and nsat[ci] == 0:
                    empty.remove(ci)
            for ci in occ[lit]:
                nfree[ci] += 1
                s = nsat[ci] - 1
                nsat[ci] = s
                if s == 0:
                    self.nunsat += 1
                    for q in clauses[ci]:
                        cnt[q] += 1
            val[lit] = 0
            val[lit ^ 1] = 0
        del trail[lim:]

    def _mask(self, ci: int, abit: dict[int, int]) -> int:
        """The assumptions (as bits) behind the falsity of every literal of clause ``ci``."""
        return self._lit_mask([q ^ 1 for q in self.clauses[ci]], abit)

    def _lit_mask(self, starts: list[int], abit: dict[int, int]) -> int:
        """The assumptions (as bits) that the true literals ``starts`` depend on."""
        reason = self.reason
        flipmask = self.flipmask
        clauses = self.clauses
        mask = 0
        seen = set()
        stack = list(starts)
        while stack:
            t = stack.pop()
            v = t >> 1
            if v in seen:
                continue
            seen.add(v)
            r = reason[v]
            if r is None:
                mask |= abit.get(v, 0)
            elif r >= 0:
                for q in clauses[r]:
                    if q != t:
                        stack.append(q ^ 1)
            elif r == FLIPPED:
                mask |= flipmask[v]
        return mask
