"""Counts that describe a CNF formula: sizes, clause lengths, pure literals, duplicates."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

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
    """Compute :class:`FormulaStats` for ``formula`` in one pass over its clauses."""
    lengths: Counter[int] = Counter()
    positive: set[int] = set()
    negative: set[int] = set()
    seen: set[frozenset[int]] = set()
    duplicates = tautologies = literals = 0
    for clause in formula.clauses:
        lengths[len(clause)] += 1
        literals += len(clause)
        key = frozenset(clause)
        if key in seen:
            duplicates += 1
        else:
            seen.add(key)
        if any(-lit in key for lit in key):
            tautologies += 1
        for lit in clause:
            (positive if lit > 0 else negative).add(abs(lit))
    used = positive | negative
    return FormulaStats(
        variables=max(formula.nvars, formula.max_var),
        variables_used=len(used),
        clauses=len(formula.clauses),
        literals=literals,
        length_histogram=dict(sorted(lengths.items())),
        empty_clauses=lengths.get(0, 0),
        unit_clauses=lengths.get(1, 0),
        binary_clauses=lengths.get(2, 0),
        pure_literals=len(positive ^ negative),
        duplicate_clauses=duplicates,
        tautologies=tautologies,
    )
