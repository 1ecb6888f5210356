"""What both classic DPLL searches share: literal codes, statistics, limits, DRUP lemmas, cores.

Literal codes follow MiniSat: variable ``v`` has the codes ``2*v`` (positive)
and ``2*v + 1`` (negative); the negation of code ``l`` is ``l ^ 1`` and its
variable is ``l >> 1``. The value array is indexed by code: ``1`` true,
``-1`` false, ``0`` unassigned (both codes of a variable are written together).

Proofs. Neither search learns clauses, so the DRUP proof is the trace of the
search tree (NOTES.md §4): each time a decision ``x`` is abandoned, the lemma
``-d1 … -d(k-1) -x`` (the decisions still on the path, ``x`` included) is
logged, and a conflict with no decision left logs the empty clause. Each such
lemma is RUP given the formula and the earlier lemmas. A lemma of k decisions
subsumes the longer lemmas logged below its node (they hold its literals), so
those are deleted once it is logged: the checker's clause database stays about
as deep as the search, and a checker's time grows with the proof's length, not
with its square (a 75,000-lemma proof took dratify 188 s without deletions).

The pure-literal rule is *not* logged, on purpose, and the proof still checks:
a pure literal ``l`` only satisfies clauses. Every clause holding ``-l`` was
already satisfied by an earlier literal of the trail when ``l`` was set, and
stays satisfied while ``l`` is set, so neither ``l`` nor ``-l`` ever occurs
in a reason or in a conflicting clause. The refutation the search finds is
therefore a refutation of the formula *without* the pure assignments, and every
lemma above is RUP without them (the tests check each UNSAT proof with
dratify). For the same reason the cores traced through reasons are sound.

Cores. Assumptions are decisions on the lowest levels. When assumptions are
given, every conflict is traced back through the reasons; the assumptions it
reaches form a bit mask, and a flipped literal remembers the mask of the
subtree it refutes. The mask of the final conflict is the core.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from dpll.engine import STAT_KEYS, Limits

if TYPE_CHECKING:
    from dpll.engine import ProofSink

FLIPPED = -1
"""`reason` entry of a literal set by flipping an abandoned decision."""
PURE = -2
"""`reason` entry of a literal set by the pure-literal rule.

Other `reason` entries: None for a decision (or an assumption), a clause (a
list of codes) for a unit-propagated literal, or, for a literal implied by a
binary clause, the code (an int >= 2) of that clause's false literal."""

POLL_DECISIONS = 1024
"""Limits are polled at every conflict and every this many decisions ..."""
POLL_PROPAGATIONS = 8192
"""... and every this many propagated literals, so a conflict-free run stops too."""


def code_of(lit: int) -> int:
    """The literal code of a DIMACS literal (``3`` -> 6, ``-3`` -> 7)."""
    return (lit << 1) if lit > 0 else ((-lit) << 1) | 1


def lit_of(code: int) -> int:
    """The DIMACS literal of a literal code (6 -> ``3``, 7 -> ``-3``)."""
    return -(code >> 1) if code & 1 else code >> 1


def check_clause(lits: list[int]) -> None:
    """Reject anything that is not a list of non-zero ints (bools are not literals)."""
    for lit in lits:
        if lit.__class__ is not int or lit == 0:
            raise ValueError(f"literals must be non-zero integers, got {lit!r}")


class Stopped(Exception):
    """Raised by `SearchBase.poll` when a limit is reached; the search answers None."""


class SearchBase(ABC):
    """The solve loop, counters, limit polling and proof logging shared by the classic searches.

    Subclasses keep ``trail`` and ``decisions`` (the decision literal of each
    level, ``-1`` for an assumption level that needed no decision), an ``ok``
    flag (False once an empty clause was added), the ``clauses`` kept (as literal
    codes), and provide ``ensure_vars``,
    ``_reset`` (fresh counts for a solve call), ``_search`` and ``_clear``
    (unassign everything).
    """

    ok: bool
    clauses: list[list[int]]
    trail_lim: list[int]
    flipmask: list[int]

    def __init__(self, proof: ProofSink | None) -> None:
        self.proof = proof
        self.stats: dict[str, int] = dict.fromkeys(STAT_KEYS, 0)
        self.stats["splits"] = 0
        self.decisions: list[int] = []
        self.lemmas: list[list[int]] = []  # this solve's live lemmas, shortest first
        self.limits = Limits()
        self.start_conflicts = 0
        self.start_propagations = 0
        self.model_lits: list[int] = []
        self.core_lits: list[int] = []

    def solve(self, assumptions: list[int], limits: Limits) -> bool | None:
        """Search under the assumptions; True, False, or None when a limit stopped it."""
        self.model_lits = []
        self.core_lits = []
        self.stats["splits"] += 1  # the root call, made even on a refuted formula (27-B #2)
        if not self.ok:
            return False
        for lit in assumptions:
            self.ensure_vars(abs(lit))
        self.begin(limits)
        self._reset()
        try:
            return self._search([code_of(lit) for lit in assumptions], assumptions)
        except Stopped:
            return None
        finally:
            self._clear()

    @abstractmethod
    def ensure_vars(self, nvars: int) -> None:
        """Make variables 1..nvars known."""

    @abstractmethod
    def _reset(self) -> None:
        """Fresh counts for a new solve call."""

    @abstractmethod
    def _search(self, assume: list[int], assumptions: list[int]) -> bool:
        """The search from the root under ``assume`` (codes of ``assumptions``)."""

    @abstractmethod
    def _clear(self) -> None:
        """Unassign everything."""

    @abstractmethod
    def _assign(self, lit: int, why: object) -> None:
        """Set literal code ``lit`` true with reason ``why`` (see `FLIPPED`, `PURE`)."""

    @abstractmethod
    def _cancel_until(self, level: int) -> None:
        """Undo every assignment above decision level ``level``."""

    def backtrack(self, mask: int, nassume: int, assumptions: list[int]) -> bool:
        """After a conflict: flip the deepest decision and return True; or, when only
        assumption levels are left, keep the core (``mask``: the assumptions the conflict
        depends on) and return False — the formula itself refuted at level 0.

        Chronological backtracking: the abandoned decision's lemma is logged, and the
        flipped literal remembers ``mask`` for the cores of the levels below.
        """
        level = len(self.trail_lim)
        if level <= nassume:
            if level == 0:
                self.log_refuted()
                self.ok = False
            self.core_lits = core_from_mask(mask, assumptions)
            return False
        self.log_abandon()
        x = self.decisions[-1]
        self._cancel_until(level - 1)
        self._assign(x ^ 1, FLIPPED)
        self.flipmask[x >> 1] = mask
        self.stats["splits"] += 1
        return True

    # -- answers ------------------------------------------------------------------
    def model(self) -> list[int]:
        """The model of the last True answer (every variable, signed, sorted)."""
        return list(self.model_lits)

    def core(self) -> list[int]:
        """The core of the last False answer (a subset of its assumptions)."""
        return list(self.core_lits)

    def equivalent_clauses(self) -> list[list[int]]:
        """The clauses kept (DIMACS; tautologies and repeated literals were dropped), or
        the empty clause once the formula is refuted."""
        if not self.ok:
            return [[]]
        return [[lit_of(code) for code in codes] for codes in self.clauses]

    # -- limits ---------------------------------------------------------------
    def begin(self, limits: Limits) -> None:
        """Remember where this solve call starts counting its budgets."""
        self.limits = limits
        self.lemmas = []  # an earlier solve's lemmas stay: they are not below this path
        self.start_conflicts = self.stats["conflicts"]
        self.start_propagations = self.stats["propagations"]

    def poll(self) -> None:
        """Raise `Stopped` if a budget, the deadline or the interrupt flag says stop."""
        limits = self.limits
        stats = self.stats
        if limits.interrupt is not None and limits.interrupt and limits.interrupt[0]:
            raise Stopped
        if (
            limits.conflicts is not None
            and stats["conflicts"] - self.start_conflicts >= limits.conflicts
        ):
            raise Stopped
        if (
            limits.propagations is not None
            and stats["propagations"] - self.start_propagations >= limits.propagations
        ):
            raise Stopped
        if limits.deadline is not None and time.monotonic() >= limits.deadline:
            raise Stopped

    # -- proofs -----------------------------------------------------------------
    def log_abandon(self) -> None:
        """Log ``-d1 … -dk``: the decisions on the path, the top one being abandoned; then
        delete the longer lemmas of this solve, which it subsumes (the decisions above
        ``dk`` have not changed since they were logged)."""
        if self.proof is not None:
            lemma = [-lit_of(d) for d in self.decisions if d >= 0]
            self.proof.add(lemma)
            lemmas = self.lemmas
            while lemmas and len(lemmas[-1]) > len(lemma):
                self.proof.delete(lemmas.pop())
            lemmas.append(lemma)

    def log_refuted(self) -> None:
        """Log the empty clause: the formula itself is unsatisfiable."""
        if self.proof is not None:
            self.proof.add([])


def core_from_mask(mask: int, assumptions: list[int]) -> list[int]:
    """The assumptions whose bits are set in ``mask`` (bit i = assumptions[i]), in order."""
    core = []
    i = 0
    while mask:
        if mask & 1:
            core.append(assumptions[i])
        mask >>= 1
        i += 1
    return core
