"""The contract between `dpll.Solver` and its search engines (`cdcl`, `classic`).

Both engines work on DIMACS integer literals at their boundary (``3``, ``-7``)
and may use any internal encoding (the hot loops use MiniSat's literal codes
``2*v + sign``). `dpll.Solver` owns the user-facing PySAT-shaped surface; an
engine only has to provide what is listed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

STAT_KEYS = ("decisions", "propagations", "conflicts", "restarts", "learned")
"""Statistics every engine reports (``accum_stats``); engines may add more keys."""


@dataclass
class Limits:
    """When a solve must give up and answer None (unknown).

    ``conflicts``/``propagations`` count from the start of this solve call;
    ``deadline`` is a ``time.monotonic()`` value; ``interrupt`` is a one-element
    list that another thread (or a signal handler) sets to ``[True]``.
    Engines poll these once per conflict (and every few thousand propagations
    or decisions, so a conflict-free run still stops).
    """

    conflicts: int | None = None
    propagations: int | None = None
    deadline: float | None = None
    interrupt: list[bool] | None = None


class ProofSink(Protocol):
    """Where an engine logs DRUP steps (see `dpll.proof.ProofLog`)."""

    def add(self, lits: list[int]) -> None:
        """A lemma (DIMACS literals) that is RUP w.r.t. the formula and earlier lemmas."""

    def delete(self, lits: list[int]) -> None:
        """A clause the engine no longer uses."""


class Engine(Protocol):
    """A search engine: built from clauses, solved under assumptions and limits."""

    def ensure_vars(self, nvars: int) -> None:
        """Make variables 1..nvars known (new ones unassigned)."""

    def add_clause(self, lits: list[int]) -> None:
        """Add a clause between solves (incremental use); may make the formula UNSAT."""

    def solve(self, assumptions: list[int], limits: Limits) -> bool | None:
        """True (SAT), False (UNSAT under the assumptions) or None (a limit stopped it)."""

    def model(self) -> list[int]:
        """After True: every variable 1..nvars as a signed literal, sorted by variable."""

    def core(self) -> list[int]:
        """After False: a subset of the assumptions that is already UNSAT with the formula."""

    def stats(self) -> dict[str, int]:
        """Cumulative counters; at least the keys in `STAT_KEYS`."""

    def equivalent_clauses(self) -> list[list[int]]:
        """Between solves: clauses (DIMACS) with exactly the models of the clauses added,
        over the same variables: what a fresh engine needs to be a copy of this one."""
