"""The `classic` engine: textbook DPLL — unit propagation, pure literals, splitting, flips.

No clause learning and no backjumping: a conflict flips the most recent
decision, and a decision whose both values failed is abandoned. The search
is iterative (a trail with decision levels), so a formula with a million
variables runs without touching Python's recursion limit.

Two searches sit behind one `ClassicEngine`:

* ``course`` (the default) — `dpll.classic_course.CourseSearch`, the course's
  Davis–Putnam pseudo-code order exactly (smallest pure atom, else the first
  unit clause, else the smallest unbound atom TRUE first; unbound atoms TRUE at
  success), which reproduces the course's reference outputs;
* ``random``, ``two-clause``, ``jw``, ``dlis`` — `dpll.classic_watch.WatchSearch`,
  the same procedure on MiniSat's machinery (two watched literals, trail,
  incremental pure-literal counts), with the heuristics of `dpll.heuristics`.

>>> engine = ClassicEngine(3, [[1, 2, 3], [-2, 3], [-3]])
>>> engine.solve([], Limits()), engine.model()
(True, [1, -2, -3])
>>> engine.stats()["splits"]
1
>>> engine.solve([2], Limits()), engine.core()
(False, [2])
>>> ClassicEngine(1, [[1], [-1]]).solve([], Limits())
False

Statistics: ``decisions`` (splits chosen by the heuristic), ``propagations``
(literals assigned and processed), ``conflicts``, ``restarts`` and ``learned``
(always 0 here), and ``splits``, seed 003's "number of times splitting rule
applied": one per solve call for the root DPLL call, plus one per branch tried
(every decision and every flip), all cumulative over solve calls.

Proofs: see `dpll.classic_base` — each abandoned decision logs a RUP lemma,
the pure-literal rule needs no lemma, and a refutation ends with ``0``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from typing import TYPE_CHECKING

from dpll.classic_base import check_clause
from dpll.classic_course import CourseSearch
from dpll.classic_watch import WatchSearch
from dpll.engine import Limits
from dpll.heuristics import WATCH_HEURISTICS

if TYPE_CHECKING:
    from dpll.engine import ProofSink

HEURISTICS = ("course", *WATCH_HEURISTICS)
"""The classic engine's branching heuristics; ``course`` is the default."""

__all__ = ["HEURISTICS", "ClassicEngine", "Limits"]


class ClassicEngine:
    """Textbook DPLL behind the `dpll.engine.Engine` protocol.

    :param nvars: variables 1..nvars are known from the start (more appear as
        clauses use them).
    :param clauses: the initial clauses (DIMACS literals).
    :param heuristic: one of `HEURISTICS`; anything else is a ValueError.
    :param seed: seeds every random choice (``random``, ``two-clause``, and the
        tie-breaks of ``jw``); the same seed gives the same search.
    :param proof: where DRUP lemmas go (`dpll.proof.ProofLog`), or None.
    """

    def __init__(
        self,
        nvars: int,
        clauses: list[list[int]],
        *,
        heuristic: str = "course",
        seed: int = 0,
        proof: ProofSink | None = None,
    ) -> None:
        if heuristic not in HEURISTICS:
            raise ValueError(
                f"unknown heuristic {heuristic!r} for the classic engine; "
                f"valid: {', '.join(HEURISTICS)}"
            )
        self.heuristic = heuristic
        self.seed = seed
        self._search: CourseSearch | WatchSearch
        if heuristic == "course":
            self._search = CourseSearch(proof)
        else:
            self._search = WatchSearch(heuristic, seed, proof)
        self.ensure_vars(nvars)
        self.add_clauses(clauses)

    @property
    def ok(self) -> bool:
        """False once the formula is known to be unsatisfiable without assumptions."""
        return self._search.ok

    def ensure_vars(self, nvars: int) -> None:
        """Make variables 1..nvars known (new ones unassigned)."""
        if nvars.__class__ is not int or nvars < 0:
            raise ValueError(f"the number of variables must be an int >= 0, got {nvars!r}")
        self._search.ensure_vars(nvars)

    def add_clause(self, lits: list[int]) -> None:
        """Add a clause (between solves); the empty clause makes the formula UNSAT."""
        self.add_clauses([lits])

    def add_clauses(self, clauses: Iterable[list[int]]) -> None:
        """Add many clauses at once (checked first: ValueError for a bad literal)."""
        batch = clauses if isinstance(clauses, list) else list(clauses)
        for lits in batch:
            for lit in lits:
                if lit.__class__ is not int or not lit:
                    raise ValueError(f"literals must be non-zero integers, got {lit!r}")
        # Millions of small lists: the cyclic collector would rescan them over and
        # over while they are made (3x slower); none of them can form a cycle.
        paused = gc.isenabled()
        gc.disable()
        try:
            self._search.add_clauses(batch)
        finally:
            if paused:
                gc.enable()

    def solve(self, assumptions: list[int], limits: Limits) -> bool | None:
        """True (SAT), False (UNSAT under the assumptions) or None (a limit stopped it).

        The engine stays usable after every answer, None included.
        """
        check_clause(assumptions)
        return self._search.solve(list(assumptions), limits)

    def model(self) -> list[int]:
        """After True: every variable 1..nvars as a signed literal, sorted by variable."""
        return self._search.model()

    def core(self) -> list[int]:
        """After False: the assumptions the refutation used (alone UNSAT with the formula)."""
        return self._search.core()

    def stats(self) -> dict[str, int]:
        """Cumulative counters: `dpll.engine.STAT_KEYS` plus ``splits``."""
        return dict(self._search.stats)

    def equivalent_clauses(self) -> list[list[int]]:
        """Clauses with exactly the models of those added (see `dpll.engine.Engine`)."""
        return self._search.equivalent_clauses()
