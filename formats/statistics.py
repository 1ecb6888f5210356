"""Counts that describe a CNF formula: sizes, clause lengths, pure literals, duplicates."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from itertools import chain, repeat
from operator import ne, or_, xor

from formats.formula import Formula


@dataclass
class FormulaStats:
    """What ``satkit stats`` reports.

    ``pure_literals`` counts variables that occur with one sign only;
    ``duplicate_clauses`` counts clauses equal (as literal sets) to an earlier
    one; ``tautologies`` counts clauses holding some ``x`` and ``-x``.
    """

    variables: int
    variables_used: int
    clauses: int
    literals: int
    length_histogram: dict[int, int] = field(default_factory=dict)
    empty_clauses: int = 0
    unit_clauses: int = 0
    binary_clauses: int = 0
    pure_literals: int = 0
    duplicate_clauses: int = 0
    tautologies: int = 0

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict (histogram keys as strings)."""
        data = asdict(self)
        data["length_histogram"] = {str(k): v for k, v in sorted(self.length_histogram.items())}
        return data


def formula_stats(formula: Formula) -> FormulaStats:
    """Compute :class:`FormulaStats` for ``formula``.

    Written for big files (4.2 million clauses: 17 s and 2 GB with a set of frozensets,
    about 5 s and a few hundred MB this way): each pass maps a C-level function over the
    clauses, and variables are marked in a byte array instead of a set of literals — up
    to the largest variable used, not the header's count (`p cnf 300000000 1` took 10 s
    and 1.5 GB), and with sets when the few variables used lie far apart.
    """
    clauses = formula.clauses
    lengths = Counter(map(len, clauses))
    literals = sum(length * count for length, count in lengths.items())
    top = max(max(chain.from_iterable(clauses), default=0),
              -min(chain.from_iterable(clauses), default=0))  # fmt: skip
    variables = max(formula.nvars, top)
    if top <= 4 * literals + 4096:
        # literal l marks byte l: v at v, -v at 2n+1-v (a negative index counts from the end)
        marks = bytearray(2 * top + 1)
        for lit in chain.from_iterable(clauses):
            marks[lit] = 1
        positive = marks[1 : top + 1]
        negative = marks[top + 1 :][::-1]  # byte v-1: does -v occur
        used = sum(map(or_, positive, negative))
        pure = sum(map(xor, positive, negative))
    else:  # a few variables far apart (`-300000000 0`): sets, not a byte per number
        occurring = set(chain.from_iterable(clauses))
        plus = {lit for lit in occurring if lit > 0}
        minus = {-lit for lit in occurring if lit < 0}
        used = len(plus | minus)
        pure = len(plus ^ minus)
    set_lengths = list(map(len, map(set, clauses)))
    abs_lengths = map(len, map(set, map(map, repeat(abs), clauses)))
    tautologies = sum(map(ne, set_lengths, abs_lengths))  # holds x and -x
    return FormulaStats(
        variables=variables,
        variables_used=used,
        clauses=len(clauses),
        literals=literals,
        length_histogram=dict(sorted(lengths.items())),
        empty_clauses=lengths.get(0, 0),
        unit_clauses=lengths.get(1, 0),
        binary_clauses=lengths.get(2, 0),
        pure_literals=pure,
        duplicate_clauses=_duplicates(clauses, any(map(ne, set_lengths, map(len, clauses)))),
        tautologies=tautologies,
    )


def _duplicates(clauses: list[list[int]], repeats: bool) -> int:
    """How many clauses equal an earlier one as literal sets (``repeats``: some clause
    holds a literal twice). Distinct hashes prove there are none, without keeping a
    key per clause; otherwise the keys themselves are compared."""

    def keys() -> Iterator[tuple[int, ...]]:
        return map(tuple, map(sorted, map(set, clauses) if repeats else clauses))

    if len(set(map(hash, keys()))) == len(clauses):
        return 0
    return len(clauses) - len(set(keys()))
