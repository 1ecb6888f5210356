"""Commands that drive the `puzzles` package: `satkit puzzle einstein` and `satkit puzzle solve`.

Edge code: the only module of the package that prints. Exit codes follow the
`solve` convention: 10 a solution was found, 20 the puzzle has none, 0 unknown
(interrupted), 1 bad input, 2 usage error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from dpll.solver import CDCL_HEURISTICS, CLASSIC_HEURISTICS
from formats.cli import fail, report_errors
from formats.dimacs import write_dimacs
from formats.streams import is_stdout
from puzzles.decoder import DecodeError, Solution, format_table
from puzzles.einstein import einstein_puzzle
from puzzles.loader import load_puzzle
from puzzles.solve import PuzzleResult, dpll_factory, solve_puzzle
from puzzles.zebra import Puzzle, encode

HEURISTICS = {"classic": CLASSIC_HEURISTICS, "cdcl": CDCL_HEURISTICS}
EXIT_SOLVED = 10
EXIT_NO_SOLUTION = 20
EXIT_UNKNOWN = 0


def _solve_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options both subcommands share."""
    options = [
        click.option(
            "--cnf",
            "cnf_path",
            metavar="OUT",
            type=click.Path(dir_okay=False),
            help="Also write the puzzle's CNF as DIMACS to OUT (atomically).",
        ),
        click.option(
            "--names",
            is_flag=True,
            help="With --cnf: name every variable in 'c var N Category(house,Value)' comments.",
        ),
        click.option(
            "--mode",
            type=click.Choice(["classic", "cdcl"]),
            default="classic",
            show_default=True,
            help="dpll engine: the seed's DPLL (counts splits) or CDCL.",
        ),
        click.option(
            "--heuristic",
            type=click.Choice([*CLASSIC_HEURISTICS, *CDCL_HEURISTICS]),
            default=None,
            help="Branching heuristic; classic: two-clause (the seed's) by default; "
            "cdcl: vsids, vsids-numbered.",
        ),
        click.option("--seed", type=int, default=0, show_default=True, help="Random seed."),
        click.option(
            "--unique/--no-unique",
            default=True,
            show_default=True,
            help="Check that the solution is the only one (block it and solve again).",
        ),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead."),
        click.option("--quiet", "-q", is_flag=True, help="No notes on stderr."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group("puzzle")
def puzzle_group() -> None:
    """Zebra puzzles: Einstein's "who owns the fish?" and any puzzle in the data format."""


@puzzle_group.command("einstein")
@_solve_options
@report_errors
def einstein_command(**options: Any) -> None:
    """Solve Einstein's puzzle, encoded exactly as seed 003 does (125 variables, 793 clauses).

    Prints the house table, the answer, whether it is unique, and how many times
    the splitting rule was applied. Exit 10 when solved.
    """
    _run(einstein_puzzle(), inputs=(), **options)


@puzzle_group.command("solve")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@_solve_options
@report_errors
def solve_command(file: str, **options: Any) -> None:
    """Solve the zebra puzzle in FILE (TOML or JSON; '-' reads stdin).

    See data/puzzles/einstein.toml for the format. Exit 10 when solved, 20 when
    the hints contradict each other, 1 for a bad file.
    """
    _run(load_puzzle(file), inputs=(file,), **options)


def _run(
    puzzle: Puzzle,
    *,
    inputs: tuple[str, ...],
    cnf_path: str | None,
    names: bool,
    mode: str,
    heuristic: str | None,
    seed: int,
    unique: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    if cnf_path is not None and is_stdout(cnf_path):
        raise click.UsageError(
            f"--cnf {cnf_path} would mix the CNF with the answer on stdout; name another file"
        )
    if names and cnf_path is None:
        raise click.UsageError("--names only applies to the CNF file: add --cnf OUT")
    if mode == "classic" and heuristic is None:
        heuristic = "two-clause"
    if heuristic is not None and heuristic not in HEURISTICS[mode]:
        other = "cdcl" if mode == "classic" else "classic"
        raise click.UsageError(
            f"--heuristic {heuristic} belongs to --mode {other};"
            f" --mode {mode} takes {', '.join(HEURISTICS[mode])}"
        )
    if cnf_path is not None:
        write_dimacs(encode(puzzle, names=names).formula, cnf_path, inputs=inputs)
        if not quiet and not as_json:
            click.echo(f"CNF written to {cnf_path}", err=True)
    try:
        factory = dpll_factory(mode=mode, heuristic=heuristic, seed=seed)
        result = solve_puzzle(puzzle, factory, check_unique=unique)
    except KeyboardInterrupt:
        if as_json:
            click.echo(json.dumps({"title": puzzle.title, "status": "UNKNOWN"}))
        else:
            click.echo("interrupted: no answer", err=True)
        sys.exit(EXIT_UNKNOWN)
    except DecodeError as exc:
        fail(f"the solver returned a model that is not a house table: {exc}")
        return
    except ValueError as exc:  # an engine refusing its options, or a model breaking a hint
        fail(str(exc))
        return
    solver = {"mode": mode, "heuristic": heuristic, "seed": seed}
    if as_json:
        click.echo(json.dumps(_json_report(puzzle, result, solver, cnf_path), indent=2))
    else:
        click.echo(_text_report(puzzle, result, solver))
    sys.exit(EXIT_SOLVED if result.solution is not None else EXIT_NO_SOLUTION)


def _effort(stats: dict[str, int], solver: dict[str, Any]) -> str:
    if "splits" in stats:
        what = f"Splitting-rule applications: {stats['splits']}"
        how = f"classic DPLL, {solver['heuristic']} heuristic, seed {solver['seed']}"
    else:
        what = f"Decisions: {stats.get('decisions', 0)}, conflicts: {stats.get('conflicts', 0)}"
        engine = solver["mode"] + (f", {solver['heuristic']}" if solver["heuristic"] else "")
        how = f"{engine}, seed {solver['seed']}"
    return f"{what} ({how})"


def _count(number: int, noun: str) -> str:
    """``1 hint``, ``2 hints``."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _text_report(puzzle: Puzzle, result: PuzzleResult, solver: dict[str, Any]) -> str:
    formula = result.encoding.formula
    lines = [
        f"{puzzle.title}: {puzzle.houses} houses, {len(puzzle.categories)} categories,"
        f" {_count(len(puzzle.hints), 'hint')} ({formula.nvars} variables,"
        f" {len(formula.clauses)} clauses)",
        "",
    ]
    if result.solution is None:
        lines.append("No solution: the hints contradict each other.")
        lines.append(_effort(result.stats, solver))
        return "\n".join(lines)
    lines.append(format_table(result.solution))
    lines.append("")
    answer = result.solution.answer()
    if answer is not None:
        lines.append(answer.sentence())
    if result.unique is True:
        lines.append("The solution is unique (with it blocked, the formula is unsatisfiable).")
    elif result.unique is False:
        assert result.other is not None
        lines.append("The solution is NOT unique; another one is:")
        lines.append(format_table(result.other))
    lines.append(_effort(result.stats, solver))
    return "\n".join(lines)


def _answer_json(solution: Solution) -> dict[str, Any] | None:
    answer = solution.answer()
    if answer is None:
        return None
    return {
        "question": answer.question,
        "category": answer.category,
        "where": answer.where,
        "value": answer.value,
        "house": answer.house,
    }


def _json_report(
    puzzle: Puzzle, result: PuzzleResult, solver: dict[str, Any], cnf_path: str | None
) -> dict[str, Any]:
    formula = result.encoding.formula
    solution = result.solution
    return {
        "title": puzzle.title,
        "houses": puzzle.houses,
        "categories": [name for name, _values in puzzle.categories],
        "hints": len(puzzle.hints),
        "variables": formula.nvars,
        "clauses": len(formula.clauses),
        "cnf": cnf_path,
        "solver": solver,
        "status": "SAT" if solution is not None else "UNSAT",
        "table": solution.table() if solution is not None else None,
        "true_variables": solution.true_vars() if solution is not None else None,
        "answer": _answer_json(solution) if solution is not None else None,
        "unique": result.unique,
        "other_table": result.other.table() if result.other is not None else None,
        "splits": result.stats.get("splits"),
        "stats": result.stats,
        "uniqueness_check_stats": result.check_stats,
    }


commands: list[click.Command] = [puzzle_group]
