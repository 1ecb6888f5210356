"""The formula type every reader returns: variables, integer clauses, comments, names."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING

from formats.errors import FormatWarning

if TYPE_CHECKING:  # pragma: no cover - only for type checkers
    from pysat.formula import CNF

MAX_VARIABLES = 2**31 - 1
"""The largest variable number a literal may have (what every solver can index)."""


def checked_max_var(clauses: Sequence[Iterable[int]]) -> int:
    """The largest variable in ``clauses`` (0 for none), once every literal is known to be
    one a file can hold: a non-zero int (not a bool), at most `MAX_VARIABLES`.

    Raises ValueError naming the first bad clause (1-based) otherwise: written out, a ``0``
    inside a clause would end it early (``[1, 2, 0]`` as DIMACS reads back as two clauses,
    as DP input it ends the clause list). The all-int case is checked in C-level passes.

    >>> checked_max_var([[1, -3], [2]])
    3
    >>> checked_max_var([[1, 2, 0], [-1]])
    Traceback (most recent call last):
    ...
    ValueError: clause 1 holds the literal 0 (only the end of a DIMACS clause is 0): [1, 2, 0]
    """
    literals = chain.from_iterable
    if set(map(type, literals(clauses))) - {int}:
        for index, clause in enumerate(clauses, start=1):
            for lit in clause:
                if lit.__class__ is not int:
                    try:
                        if isinstance(lit, bool):
                            raise TypeError
                        operator.index(lit)
                    except TypeError:
                        raise ValueError(
                            f"clause {index} holds {lit!r}, not an int literal: {list(clause)}"
                        ) from None
    if 0 in literals(clauses):
        index = next(i for i, clause in enumerate(clauses, start=1) if 0 in clause)
        raise ValueError(
            f"clause {index} holds the literal 0 (only the end of a DIMACS clause is 0): "
            f"{list(clauses[index - 1])}"
        )
    top = max(max(literals(clauses), default=0), -min(literals(clauses), default=0))
    if top > MAX_VARIABLES:
        index = next(
            i for i, clause in enumerate(clauses, start=1) if any(abs(lit) == top for lit in clause)
        )
        raise ValueError(
            f"clause {index} holds variable {top}, more than {MAX_VARIABLES} (2^31-1)"
        )
    return int(top)


@dataclass
class Formula:
    """A CNF formula as plain data.

    - ``nvars``: number of variables (at least the largest variable used).
    - ``clauses``: list of clauses, each a list of non-zero ints (DIMACS literals);
      an empty list is the empty clause.
    - ``comments``: comment texts in file order (without the leading ``c``).
    - ``names``: optional variable names, ``{var: "At(C,2)"}``.
    - ``back_matter``: for the assignment's DP format, the text after the ``0``
      line, byte for byte; None when the formula did not come with one.
    - ``warnings``: irregularities a lenient reader tolerated.
    - ``declared_clauses``: the clause count of a ``p cnf`` header (None if absent).
    - ``back_matter_line``: the file line where the back matter begins (a DP input's
      line after the ``0``; a DIMACS file's first ``c back-matter`` comment), for
      messages about it; None when unknown. Not part of equality.
    - ``name_lines``: the file line of each name's ``c var`` comment, for messages about
      it (empty when unknown). Not part of equality.
    - ``header_line``: the file line of the ``p cnf`` header (None: none, or unknown).
      Not part of equality.
    """

    nvars: int = 0
    clauses: list[list[int]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    back_matter: str | None = None
    warnings: list[FormatWarning] = field(default_factory=list)
    declared_clauses: int | None = None
    back_matter_line: int | None = field(default=None, compare=False)
    name_lines: dict[int, int] = field(default_factory=dict, compare=False)
    header_line: int | None = field(default=None, compare=False)

    @property
    def max_var(self) -> int:
        """The largest variable that occurs in a clause (0 for none)."""
        literals = chain.from_iterable
        return max(max(literals(self.clauses), default=0), -min(literals(self.clauses), default=0))

    def to_pysat(self) -> CNF:
        """The same clauses as a ``pysat.formula.CNF`` (comments kept, ``nv`` = nvars)."""
        from pysat.formula import CNF

        cnf = CNF()
        cnf.clauses = [list(clause) for clause in self.clauses]
        cnf.nv = self.nvars
        cnf.comments = ["c " + text if text else "c" for text in self.comments]
        return cnf

    @classmethod
    def from_pysat(cls, cnf: CNF) -> Formula:
        """A Formula holding the clauses and comments of a ``pysat.formula.CNF``."""
        clauses = [list(clause) for clause in cnf.clauses]
        used = max((abs(lit) for clause in clauses for lit in clause), default=0)
        comments = [text[1:].lstrip(" ") if text.startswith("c") else text for text in cnf.comments]
        return cls(nvars=max(cnf.nv, used), clauses=clauses, comments=comments)
