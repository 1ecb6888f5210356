"""What a PySAT-shaped solver accepts as input: formula objects, literals, declared sizes.

Shared by `dpll.Solver` and the registry's other solvers (``crosscheck.external``), so that
every solver satkit offers reads the same formula from the same object and refuses the same
bad literals.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

MAX_VARIABLE = 2**31 - 1
"""The largest variable number (DIMACS readers and MiniSat's 32-bit literals alike)."""

ZERO_LITERAL = "a literal must be a non-zero int, not 0 (0 ends a DIMACS clause)"
NO_ATMOST = (
    "AtMost constraints are not supported by this solver; encode them as clauses "
    "(pysat.card.CardEnc, for instance)"
)

_PYSAT_CLAUSE_LISTS = frozenset(("CNF", "CNFPlus", "WCNF", "WCNFPlus"))


def clauses_of(formula: Any) -> Iterable[Iterable[int]]:
    """The clauses of a list of clauses, a ``formats.Formula``, a ``pysat.formula.CNF`` or
    any other ``pysat.formula`` object (``And``, ``XOr``, …: iterated, which clausifies
    it as PySAT's solvers do; its ``clauses`` attribute holds only the top node's).

    >>> clauses_of([[1, -2], [2]])
    [[1, -2], [2]]
    """
    kind = type(formula)
    if kind.__module__ == "pysat.formula" and kind.__name__ not in _PYSAT_CLAUSE_LISTS:
        return list(formula)
    clauses = getattr(formula, "clauses", None)
    return formula if clauses is None else clauses


def declared_vars(formula: Any) -> int:
    """The variable count a ``formats.Formula`` declares (its DIMACS header's), or 0.

    A PySAT ``CNF``'s ``nv`` is not taken, as PySAT's solvers do not take it: PySAT's own
    formula objects raise it for their auxiliary variables (``Neg(cnf)`` does), which
    then appeared in models (Bica's "primes" held them)."""
    value = getattr(formula, "nvars", None)
    return value if isinstance(value, int) else 0


def has_atmosts(formula: Any) -> bool:
    """Whether ``formula`` carries AtMost constraints (a PySAT ``CNFPlus`` with ``atmosts``)."""
    return bool(getattr(formula, "atmosts", None))


def literal(value: Any) -> int:
    """An integer literal from an int-like value (numpy ints included); not a bool.

    Raises TypeError otherwise (a float, a string, True); a 0 is the caller's to refuse.
    """
    if isinstance(value, bool):
        raise TypeError(f"a literal must be a non-zero int, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"a literal must be a non-zero int, not {value!r}") from None


def count_argument(value: Any, name: str) -> int:
    """A budget or other count given as an int (numpy ints and, as PySAT takes them, bools
    included): a float, a string or None is a TypeError naming ``name``, as PySAT's
    solvers refuse them (``conf_budget(1e3)`` set a budget of a float)."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, not {value!r}") from None


def not_a_clause(clause: Any) -> TypeError:
    """The error for a clause that is no iterable: ``Solver(bootstrap_with=[1, -2])`` and
    ``add_clause(5)`` said "'int' object is not iterable" (audit 21-A #3)."""
    return TypeError(
        f"a clause is a list of int literals, not {clause!r}: a formula is a list of "
        "clauses, such as [[1, -2], [2]]"
    )


def checked_clause(clause: Iterable[Any]) -> list[int]:
    """The clause as a fresh list of non-zero int literals within `MAX_VARIABLE`.

    Raises TypeError for a literal that is not an int, ValueError for 0 or one too large.
    """
    try:
        lits = list(clause)
    except TypeError:
        raise not_a_clause(clause) from None
    for lit in lits:
        if lit.__class__ is not int:  # (plain ints, the common case, are taken as they are)
            lits = [literal(lit) for lit in lits]
            break
    if 0 in lits:
        raise ValueError(ZERO_LITERAL)
    top = max(max(lits), -min(lits)) if lits else 0
    if top > MAX_VARIABLE:
        raise ValueError(
            f"literal {top} exceeds the largest variable number {MAX_VARIABLE} (2^31-1)"
        )
    return lits
