"""Solving a zebra puzzle end to end: encode, solve, decode, check the hints, check uniqueness.

The uniqueness check is the classic one: add the clause that blocks the
solution found and solve again; the puzzle is well posed exactly when that
second solve is unsatisfiable. When it is not and the puzzle asks a question,
the check also decides whether the answer is determined: unless the second
solution already answers otherwise, it blocks the answer (the questioned item
and the answer's value together, in any house) and solves once more.

The solver is `dpll.Solver` unless a factory is given (any object with PySAT's
``solve``/``get_model``/``add_clause``/``accum_stats``/``delete`` will do).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from formats.answers import check_model
from formats.errors import FormatError
from puzzles.decoder import Solution, decode
from puzzles.zebra import Encoding, Puzzle, encode

SolverFactory = Callable[[list[list[int]]], Any]


@dataclass
class PuzzleResult:
    """What solving a puzzle found.

    - ``solution``: the decoded table (None when the puzzle has no solution);
    - ``unique``: True/False after the uniqueness check (None when it was not run
      or there is no solution); ``other`` is a second solution when not unique,
      one that answers the question otherwise whenever such a solution exists;
    - ``answer_determined``: True when every solution gives the question the same
      answer (the same value: the question asks for a value; its house may differ), False
      when ``other`` answers otherwise, None when the check was not run, there is no
      solution or no question;
    - ``stats``: the solver's counters for the first solve only;
      ``check_stats``: those the uniqueness check added;
    - ``check_interrupted``: Ctrl-C or SIGTERM stopped the uniqueness check, after the
      solution was found and checked (``unique`` is then None).
    """

    encoding: Encoding
    solution: Solution | None
    unique: bool | None
    other: Solution | None = None
    stats: dict[str, int] = field(default_factory=dict)
    check_stats: dict[str, int] = field(default_factory=dict)
    answer_determined: bool | None = None
    check_interrupted: bool = False


def dpll_factory(
    mode: str = "classic", heuristic: str | None = "two-clause", seed: int = 0
) -> SolverFactory:
    """A factory that builds `dpll.Solver` with these options (ValueError for bad ones)."""
    from dpll import Solver

    def build(clauses: list[list[int]]) -> Any:
        return Solver(bootstrap_with=clauses, mode=mode, heuristic=heuristic, seed=seed)

    return build


def _counters(solver: Any) -> dict[str, int]:
    stats = solver.accum_stats() or {}
    return {key: value for key, value in stats.items() if isinstance(value, int)}


def _same_answer(first: Solution, second: Solution) -> bool:
    one, two = first.answer(), second.answer()
    assert one is not None and two is not None
    return one.value == two.value


def solve_puzzle(
    puzzle: Puzzle, factory: SolverFactory | None = None, *, check_unique: bool = True
) -> PuzzleResult:
    """Encode ``puzzle``, solve it, decode the model, and (by default) check uniqueness.

    Raises `puzzles.decoder.DecodeError` if the solver's model is not a consistent
    table, and ValueError if it breaks a hint — neither can happen with a correct
    solver, and neither is ever shown as an answer.
    """
    encoding = encode(puzzle, names=False)
    build = factory or dpll_factory()
    solver = build(encoding.formula.clauses)
    try:
        if not solver.solve():
            return PuzzleResult(encoding, None, None, stats=_counters(solver))
        solution = decode(puzzle, solver.get_model())
        _check_hints(solution, "the solver's")
        stats = _counters(solver)
        return _check_uniqueness(puzzle, encoding, solver, solution, stats, check_unique)
    finally:
        solver.delete()


def _check_hints(solution: Solution, whose: str) -> None:
    """ValueError when the table breaks a hint (the CNF's clauses should have prevented it)."""
    broken = solution.violated_hints()
    if broken:
        raise ValueError(f"{whose} model breaks {len(broken)} hint(s), e.g. {broken[0]}")


def _check_uniqueness(
    puzzle: Puzzle,
    encoding: Encoding,
    solver: Any,
    solution: Solution,
    stats: dict[str, int],
    check_unique: bool,
) -> PuzzleResult:
    """The result for ``solution`` (whose clauses ``solver`` holds), after blocking it and
    solving again when ``check_unique``; ``stats``: the counters before the check."""
    if not check_unique:
        return PuzzleResult(encoding, solution, None, stats=stats)
    try:
        solver.add_clause(solution.blocking_clause())
        other = decode(puzzle, solver.get_model()) if solver.solve() else None
        determined = None
        if puzzle.question is not None:
            determined = other is None
            if other is not None and _same_answer(solution, other):
                # a second solution with the same answer: does any answer otherwise?
                for clause in solution.answer_blocking_clauses():
                    solver.add_clause(clause)
                if solver.solve():
                    other = decode(puzzle, solver.get_model())
                else:
                    determined = True
    except KeyboardInterrupt:  # the solution found stands (audit 22-A #1)
        return PuzzleResult(encoding, solution, None, stats=stats, check_interrupted=True)
    after = _counters(solver)
    check = {key: after[key] - stats.get(key, 0) for key in after}
    return PuzzleResult(encoding, solution, other is None, other, stats, check, determined)


def clause_source(encoding: Encoding, number: int) -> str:
    """Which constraint clause ``number`` (1-based) of the encoding comes from:
    ``the hint next_to(Nationality:Norwegian, Color:Blue)`` or ``exactly_one(Color)``."""
    for group in encoding.groups:
        if group.first <= number <= group.last:
            base = group.label.startswith("exactly_one(")
            return group.label if base else f"the hint {group.label}"
    return "no constraint"  # (not reached: the groups cover every clause)


def answer_puzzle(
    puzzle: Puzzle,
    valuation: Mapping[int, bool] | None,
    file: str,
    factory: SolverFactory | None = None,
    *,
    check_unique: bool = True,
    line: int | None = None,
) -> PuzzleResult:
    """Check and decode another solver's answer to the puzzle's CNF (`encode`'s, which
    ``--cnf`` writes), as `solve_puzzle` does its own solver's.

    ``valuation`` is the answer's model as ``{variable: value}``, or None when the solver
    said UNSATISFIABLE. A model must name no variable the CNF lacks and make every
    clause true (else `FormatError` naming ``file`` and the clause's constraint); it is
    then decoded, and its uniqueness checked with ``factory``'s solver. An UNSATISFIABLE
    answer is confirmed with that solver: finding a solution is a `FormatError`.
    ``stats`` hold the confirming solve's counters (none for a model). ``line``: the
    answer's status line, which errors about an UNSATISFIABLE cite.
    """
    encoding = encode(puzzle, names=False)
    clauses = encoding.formula.clauses
    if valuation is not None:
        check_model(
            clauses, valuation, file, puzzle.nvars, lambda n: "from " + clause_source(encoding, n)
        )
        solution = decode(puzzle, (v if value else -v for v, value in valuation.items()))
        _check_hints(solution, "the answer's")
    solver = (factory or dpll_factory())(clauses)
    try:
        if valuation is None:
            if solver.solve():
                raise FormatError(
                    file, line, "the solver says UNSATISFIABLE, but dpll finds a solution of"
                    " the puzzle's CNF: this answer is wrong, or for another CNF",
                )  # fmt: skip
            return PuzzleResult(encoding, None, None, stats=_counters(solver))
        return _check_uniqueness(puzzle, encoding, solver, solution, {}, check_unique)
    finally:
        solver.delete()
