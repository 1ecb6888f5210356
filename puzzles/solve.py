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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
        broken = solution.violated_hints()
        if broken:
            raise ValueError(f"the solver's model breaks {len(broken)} hint(s), e.g. {broken[0]}")
        stats = _counters(solver)
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
    finally:
        solver.delete()
