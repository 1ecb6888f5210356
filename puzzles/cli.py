"""Commands that drive the `puzzles` package: `satkit puzzle einstein`, `solve` and `hitman`.

Edge code: the only module of the package that prints. Exit codes follow the
`solve` convention: 10 a solution was found, 20 the puzzle has none, 0 unknown
(interrupted), 1 bad input, 2 usage error.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

import click

from dpll.solver import CDCL_HEURISTICS, CLASSIC_HEURISTICS
from formats.answers import (
    check_solved_header,
    formula_given_as_answer,
    looks_like_result,
    read_answer_text,
    read_dp_answer,
)
from formats.cli import (
    PATH,
    PATH_OR_DASH,
    SEED,
    at_terminal,
    fail,
    leave,
    one_stdin,
    print_warnings,
    report_errors,
)
from formats.dimacs import write_dimacs
from formats.errors import FormatError, count
from formats.results import parse_result
from formats.streams import check_output, display_name, is_stdout
from puzzles.decoder import DecodeError, Solution, format_table
from puzzles.einstein import einstein_puzzle
from puzzles.loader import load_puzzle
from puzzles.solve import PuzzleResult, answer_puzzle, dpll_factory, solve_puzzle
from puzzles.zebra import Puzzle, encode

if TYPE_CHECKING:  # the Hitman modules (and pysat.card) load only for `puzzle hitman`
    from puzzles.hitman_explore import Exploration
    from puzzles.hitman_sat import KnowledgeBase
    from puzzles.hitman_trace import Replay, Trace
    from puzzles.hitman_world import HitmanMap

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
            type=PATH,
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
            default=None,
            help="dpll engine: the seed's DPLL (counts splits; the default) or CDCL (clause "
            "learning: seconds where the DPLL takes hours on puzzles much bigger than "
            "Einstein's; the default with --answer, which only checks uniqueness with it).",
        ),
        click.option(
            "--heuristic",
            type=click.Choice([*CLASSIC_HEURISTICS, *CDCL_HEURISTICS]),
            default=None,
            help="Branching heuristic; classic: two-clause (the seed's) by default; "
            "cdcl: vsids, vsids-numbered.",
        ),
        click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed."),
        click.option(
            "--answer",
            "answer_path",
            metavar="RESULT",
            type=PATH_OR_DASH,
            help="Do not solve: decode another solver's answer to the puzzle's CNF (as --cnf "
            "writes it): SAT-competition 's'/'v' lines, a MiniSat result file, or a DP output. "
            "Every clause is checked; uniqueness and an UNSATISFIABLE are checked with dpll "
            "(--mode cdcl unless given); an UNKNOWN answer exits 0.",
        ),
        click.option(
            "--unique/--no-unique",
            default=True,
            show_default=True,
            help="Check that the solution is the only one (block it and solve again) and,"
            " when it is not, whether another solution answers the question otherwise.",
        ),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead."),
        click.option("--quiet", "-q", is_flag=True, help="No notes on stderr."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group("puzzle", short_help="The seeds' puzzles: zebra puzzles (Einstein's) and Hitman.")
def puzzle_group() -> None:
    """The seeds' puzzles: zebra puzzles (Einstein's and any in a data file) and Hitman phase 1."""


@puzzle_group.command("einstein")
@_solve_options
@report_errors
def einstein_command(**options: Any) -> None:
    """Solve Einstein's puzzle, encoded exactly as seed 003 does (125 variables, 793 clauses).

    Prints the house table, the answer, whether it is unique, and how many times
    the splitting rule was applied (or, with --answer, the answer file it read).
    Exit 10 when solved, 0 when Ctrl-C, SIGTERM or an UNKNOWN answer left it
    unknown, 1 for a bad or wrong answer; 130 when the stop comes in satkit's
    first moments, before the command has started, or while the answer is printed.
    """
    _run(einstein_puzzle(), inputs=(), **options)


@puzzle_group.command("solve")
@click.argument("file", type=PATH_OR_DASH)
@_solve_options
@report_errors
def solve_command(file: str, **options: Any) -> None:
    """Solve the zebra puzzle in FILE (TOML or JSON; '-' reads stdin).

    See data/puzzles/einstein.toml for the format. Houses are numbered from 1 on
    the left, and each hint is of one of these kinds:

    \b
      same_house = [A, B]         A and B are in the same house
      not_same_house = [A, B]     A and B are in different houses
      next_to = [A, B]            A's and B's houses are neighbours
      left_of = [A, B]            A's house is immediately left of B's
      somewhere_left_of = [A, B]  A's house is left of B's, at any distance
      fact = [house, A]           A is in that house
      not_fact = [house, A]       A is not in that house

    For "right of", swap the pair. Exit 10 when solved, 20 when the hints
    contradict each other (with --answer: the answer says so and dpll agrees), 0
    when Ctrl-C, SIGTERM or an UNKNOWN answer left it unknown, 1 for a bad file or
    a bad or wrong answer; 130 when the stop comes in satkit's first moments,
    before the command has started, or while the answer is printed.
    """
    one_stdin(FILE=file, **{"--answer": options["answer_path"]})
    with _unknown_when_interrupted(options["as_json"], {"title": None}):  # (not read yet)
        puzzle = load_puzzle(file)
    _run(puzzle, inputs=(file,), **options)


def _run(
    puzzle: Puzzle,
    *,
    inputs: tuple[str, ...],
    cnf_path: str | None,
    names: bool,
    mode: str | None,
    heuristic: str | None,
    seed: int,
    answer_path: str | None,
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
    defaulted = mode is None
    if defaulted:  # an answer needs dpll only for checks: cdcl makes them in seconds
        mode = "classic" if answer_path is None else "cdcl"
    if heuristic is None:  # named in the report, text and JSON alike
        heuristic = "two-clause" if mode == "classic" else "vsids"
    if heuristic is not None and heuristic not in HEURISTICS[mode]:
        other = "cdcl" if mode == "classic" else "classic"
        default = " (the default with --answer)" if defaulted and answer_path else ""
        raise click.UsageError(
            f"--heuristic {heuristic} belongs to --mode {other};"
            f" --mode {mode}{default} takes {', '.join(HEURISTICS[mode])}"
        )
    if answer_path is not None:
        inputs = (*inputs, answer_path)
        if cnf_path is not None:
            check_output(cnf_path, inputs=inputs)  # (before the answer is read)

    def write_cnf() -> None:  # (when asked; said on stderr unless quiet)
        if cnf_path is not None:
            write_dimacs(encode(puzzle, names=names).formula, cnf_path, inputs=inputs)
            if not quiet and not as_json:
                click.echo(f"CNF written to {cnf_path}", err=True)

    try:
        with _unknown_when_interrupted(as_json, {"title": puzzle.title}):
            factory = dpll_factory(mode=mode, heuristic=heuristic, seed=seed)
            if answer_path is None:
                write_cnf()
                result = solve_puzzle(puzzle, factory, check_unique=unique)
            else:
                name = display_name(answer_path)
                try:
                    valuation, line = read_answer(answer_path, puzzle, quiet)
                except _NoAnswer:
                    write_cnf()  # (a time-out is no bad input: the run writes what it was asked)
                    raise
                result = answer_puzzle(
                    puzzle, valuation, name, factory, check_unique=unique, line=line
                )
                # once the answer is accepted: a run refused for a bad answer (exit 1) leaves
                # OUT as it was, as every satkit output is left (audit 28-C)
                write_cnf()
    except _NoAnswer as unknown:  # a solver's time-out: unknown, as `solve` says it
        if as_json:
            what = {"title": puzzle.title, "status": "UNKNOWN", "answer": unknown.name}
            click.echo(json.dumps({**what, "status_line": unknown.line}))
        else:
            click.echo(f"{puzzle.title}: no answer, {unknown.where} says UNKNOWN")
        leave(EXIT_UNKNOWN)
    except DecodeError as exc:
        fail(f"the solver returned a model that is not a house table: {exc}")
        return
    except ValueError as exc:  # an engine refusing its options, or a model breaking a hint
        fail(str(exc))
        return
    solver = {"mode": mode, "heuristic": heuristic, "seed": seed}
    if answer_path is not None:
        solver["answer"] = display_name(answer_path)
    if as_json:
        click.echo(json.dumps(_json_report(puzzle, result, solver, cnf_path), indent=2))
    else:
        click.echo(_text_report(puzzle, result, solver))
    leave(EXIT_SOLVED if result.solution is not None else EXIT_NO_SOLUTION)


class _NoAnswer(Exception):
    """The answer file says UNKNOWN (a solver's time-out or limit): nothing to decode."""

    def __init__(self, name: str, line: int | None) -> None:
        super().__init__(name, line)
        self.name = name
        self.line = line
        self.where = name if line is None else f"{name}:{line}"


def read_answer(
    path: str, puzzle: Puzzle, quiet: bool
) -> tuple[dict[int, bool] | None, int | None]:
    """The model of another solver's answer to the puzzle's CNF, as ``{variable: value}``
    (None when it says UNSATISFIABLE), and the line that says its status when known.
    An UNKNOWN raises `_NoAnswer`; a SAT without a model, MiniSat's screen output, or an
    answer whose solver read another header is a FormatError."""
    name = display_name(path)
    text = read_answer_text(path, name)
    try:
        if not looks_like_result(text):
            dp_output = read_dp_answer(text, name)
            print_warnings(dp_output.warnings, quiet)
            return dp_output.valuation, None
        result = parse_result(text, name)
    except FormatError as refused:  # the puzzle's CNF, or its DP input, given as the answer?
        told = formula_given_as_answer(
            text,
            name,
            cnf_hint="give what a solver prints for it",
            dp_hint="give what `satkit dp` writes for it",
        )
        raise told or refused from None
    formula = encode(puzzle, names=False).formula
    check_solved_header(
        result.comments, formula.nvars, len(formula.clauses), name, "the puzzle's CNF"
    )
    if result.status == "UNKNOWN":
        raise _NoAnswer(name, result.status_line)
    if result.status == "UNSAT":
        return None, result.status_line
    if not result.model:
        message = "the solver says SATISFIABLE but gives no model"
        raise FormatError(name, result.status_line, message)
    return result.valuation(), result.status_line


def _effort(result: PuzzleResult, solver: dict[str, Any]) -> str:
    """The last line of the text report: who solved the puzzle, and how hard it was."""
    stats = result.stats
    if "answer" in solver:
        how = _engine_words(solver)
        if result.solution is not None:  # every clause checked; dpll only blocked it
            checked = "" if result.unique is None else f"; uniqueness checked by {how}"
            return f"Answer read from {solver['answer']} (every clause checked){checked}"
        return (
            f"Answer read from {solver['answer']}: UNSATISFIABLE, confirmed by {how}"
            f" ({_counts(stats)})"
        )
    return f"{_counts(stats)} ({_engine_words(solver)})"


def _counts(stats: dict[str, int]) -> str:
    if "splits" in stats:
        return f"Splitting-rule applications: {stats['splits']}"
    return f"Decisions: {stats.get('decisions', 0)}, conflicts: {stats.get('conflicts', 0)}"


def _engine_words(solver: dict[str, Any]) -> str:
    if solver["mode"] == "classic":
        return f"classic DPLL, {solver['heuristic']} heuristic, seed {solver['seed']}"
    engine = solver["mode"] + (f", {solver['heuristic']}" if solver["heuristic"] else "")
    return f"{engine}, seed {solver['seed']}"


def _text_report(puzzle: Puzzle, result: PuzzleResult, solver: dict[str, Any]) -> str:
    formula = result.encoding.formula
    lines = [
        f"{puzzle.title}: {count(puzzle.houses, 'house')},"
        f" {count(len(puzzle.categories), 'category', 'categories')},"
        f" {count(len(puzzle.hints), 'hint')} ({count(formula.nvars, 'variable')},"
        f" {count(len(formula.clauses), 'clause')})",
        "",
    ]
    if result.solution is None:
        lines.append("No solution: the hints contradict each other.")
        lines.append(_effort(result, solver))
        return "\n".join(lines)
    lines.append(format_table(result.solution))
    lines.append("")
    answer_line = _answer_line(result)
    if answer_line is not None:
        lines.append(answer_line)
    if result.unique is True:
        lines.append("The solution is unique (with it blocked, the formula is unsatisfiable).")
    elif result.unique is False:
        assert result.other is not None
        lines.append("The solution is NOT unique; another one is:")
        lines.append(format_table(result.other))
    elif result.check_interrupted:
        lines.append("Whether the solution is unique is not known: its check was interrupted.")
    lines.append(_effort(result, solver))
    return "\n".join(lines)


def _answer_line(result: PuzzleResult) -> str | None:
    """The answer as a sentence; when another solution answers otherwise, both answers and
    that the answer is not determined (never the first one as if it were the answer)."""
    assert result.solution is not None
    answer = result.solution.answer()
    if answer is None:
        return None
    if result.answer_determined is False:
        assert result.other is not None
        other = result.other.answer()
        assert other is not None
        return (
            f"{answer.asked} Not determined: {answer.value} (house {answer.house}) above,"
            f" {other.value} (house {other.house}) in the other solution below."
        )
    if result.answer_determined and result.unique is False:  # (its house may differ)
        return f"{answer.asked} {answer.value} (in every solution)."
    return answer.sentence()


def _answer_json(solution: Solution) -> dict[str, Any] | None:
    answer = solution.answer()
    if answer is None:
        return None
    return {
        "question": answer.asked,  # as the text output words it
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
        "answer_determined": result.answer_determined,
        "unique": result.unique,
        "uniqueness_check_interrupted": result.check_interrupted,
        "other_table": result.other.table() if result.other is not None else None,
        "other_answer": _answer_json(result.other) if result.other is not None else None,
        "splits": result.stats.get("splits"),
        "stats": result.stats,
        "uniqueness_check_stats": result.check_stats,
    }


EXIT_GUESSED = 0
"""`puzzle hitman`: some cells could not be determined and were guessed (or, with
--replay, left unknown, or nothing was checked: the trace names no map of MAPS.json);
10 means every cell was determined and is right."""

HITMAN_MARKS = {"deduced": "+", "guessed": "*"}
ACTION_LETTERS = {"move": "M", "turn_clockwise": "R", "turn_anti_clockwise": "L"}


@puzzle_group.command("hitman")
@click.argument("maps_path", metavar="MAPS.json", type=PATH_OR_DASH)
@click.option(
    "--map", "map_name", metavar="NAME", help="The map to play (needed when the file has several)."
)
@click.option(
    "--replay",
    "trace_path",
    metavar="TRACE.jsonl",
    type=PATH_OR_DASH,
    help="Do not explore: deduce from the observations of a recorded trace instead.",
)
@click.option(
    "--index",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="With --replay: the N-th trace of the file (blank lines not counted).",
)
@click.option(
    "--cnf",
    "cnf_path",
    metavar="OUT",
    type=PATH_OR_DASH,
    help="Also write the final knowledge base as DIMACS with 'c var N NAME' names (atomically).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead.")
@click.option("--quiet", "-q", is_flag=True, help="No notes or progress on stderr.")
@report_errors
def hitman_command(
    maps_path: str,
    map_name: str | None,
    trace_path: str | None,
    index: int,
    cnf_path: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Hitman phase 1 (seed 004): explore a map of MAPS.json, deducing its cells with SAT.

    Plays the map against an offline copy of the course referee, adds every
    status to a CNF knowledge base and deduces the cells whose content is forced,
    then sends the map and prints it (top row first) with the actions, the
    penalties, the score and how many cells were seen, deduced or guessed.
    MAPS.json is a "hitman-maps/1" file. With --replay, the observations of a
    recorded trace are used instead of exploring, and checked against the map
    the trace names (or --map).

    Exit 10 when every cell was determined (and is right), 0 when some cells
    had to be guessed (--replay: were left unknown, or were not checked since
    the trace names no map that MAPS.json holds) or when Ctrl-C or SIGTERM
    stopped the run, 1 for bad input; 130 when the stop comes in satkit's first
    moments, before the command has started, or while the report is printed.
    """
    if cnf_path is not None and is_stdout(cnf_path):
        raise click.UsageError(
            f"--cnf {cnf_path} would mix the CNF with the report on stdout; name another file"
        )
    if index != 1 and trace_path is None:
        raise click.UsageError("--index only applies to --replay TRACE.jsonl")
    one_stdin(**{"MAPS.json": maps_path, "--replay": trace_path})
    inputs = (maps_path,) if trace_path is None else (maps_path, trace_path)
    if cnf_path is not None:
        check_output(cnf_path, inputs=inputs)
    what: dict[str, str | None] = {"map": map_name}
    with _unknown_when_interrupted(as_json, what):  # reading, exploring or replaying, writing
        if trace_path is not None:
            replayed = _hitman_replayed(maps_path, map_name, trace_path, index, what)
            told = f"replay of {display_name(trace_path)} trace {index}"
            _write_hitman_cnf(replayed.result.kb, cnf_path, inputs, told, as_json, quiet)
        else:
            result = _hitman_explore(maps_path, map_name, what, quiet)
            told = f"explored map {result.world.name}"
            _write_hitman_cnf(result.kb, cnf_path, inputs, told, as_json, quiet)
    if trace_path is not None:  # (it leaves with the replay's exit code)
        _hitman_replay_report(maps_path, trace_path, index, replayed, cnf_path, as_json)
    if as_json:
        click.echo(json.dumps(_hitman_json(result, cnf_path), indent=2))
    else:
        click.echo(_hitman_text(result))
    leave(EXIT_SOLVED if result.determined and result.all_correct else EXIT_GUESSED)


def _hitman_explore(
    maps_path: str, map_name: str | None, what: dict[str, str | None], quiet: bool
) -> Exploration:
    """Explore the map ``map_name`` of MAPS.json (the only one when None), with progress at
    a terminal; ``what["map"]`` is set to its name once it is known."""
    from puzzles.hitman_explore import explore
    from puzzles.hitman_world import choose_map, known_names, load_maps

    maps = load_maps(maps_path, only=map_name)  # (another map's flaw does not stop this one)
    if map_name is None and len(maps) > 1:
        raise click.UsageError(
            f"{display_name(maps_path)} holds {len(maps)} maps; choose one with --map:"
            f" {known_names(maps)}"
        )
    world = choose_map(maps, map_name, display_name(maps_path))
    what["map"] = world.name
    cells = world.m * world.n
    steps = [0, 0]  # cells known, actions taken: written by explore, read by the ticker

    def describe(elapsed: float) -> str:
        known, actions = steps
        return (
            f"satkit puzzle hitman: exploring {world.name}: {known}/{cells} cells known, "
            f"{actions} actions, {elapsed:.0f} s"
        )

    def record(known: int, actions: int) -> None:
        steps[:] = known, actions

    progress = at_terminal(describe, quiet)
    try:
        with progress or contextlib.nullcontext():
            result = explore(world, on_step=record)
    except ValueError as exc:  # a map too big to explore (audit 22-A #3: at its line)
        raise FormatError(display_name(maps_path), world.line, str(exc)) from None
    if result.wrong and not result.guessed:
        fail(f"internal error: a determined cell is wrong ({result.wrong[0]}); please report it")
    return result


@contextlib.contextmanager
def _unknown_when_interrupted(as_json: bool, what: dict[str, str | None]) -> Iterator[None]:
    """Ctrl-C or SIGTERM anywhere in the block (reading the input, writing --cnf, solving)
    ends the command as `_interrupted`, with ``what`` as it is by then (audit 27-A #1)."""
    try:
        yield
    except KeyboardInterrupt:
        _interrupted(as_json, **what)


def _interrupted(as_json: bool, **what: str | None) -> NoReturn:
    """Say that Ctrl-C or SIGTERM stopped the run before an answer and exit 0 (unknown):
    ``interrupted: no answer`` on stderr, or the JSON object ``{**what, "status": "UNKNOWN"}``."""
    if as_json:
        click.echo(json.dumps({**what, "status": "UNKNOWN"}))
    else:
        click.echo("interrupted: no answer", err=True)
    leave(EXIT_UNKNOWN)


def _write_hitman_cnf(
    kb: KnowledgeBase,
    cnf_path: str | None,
    inputs: tuple[str, ...],
    what: str,
    as_json: bool,
    quiet: bool,
) -> None:
    if cnf_path is None:
        return
    write_dimacs(kb.formula(comments=[f"satkit puzzle hitman: {what}"]), cnf_path, inputs=inputs)
    if not quiet and not as_json:
        click.echo(f"CNF written to {cnf_path}", err=True)


def compact_actions(actions: list[str]) -> str:
    """``M`` move, ``R`` turn clockwise, ``L`` anti-clockwise; runs as ``M3``."""
    tokens = []
    for letter, run in itertools.groupby(ACTION_LETTERS[action] for action in actions):
        count = len(list(run))
        tokens.append(letter + (str(count) if count > 1 else ""))
    return " ".join(tokens)


def _hitman_legend() -> str:
    from puzzles.hitman_world import CODES

    codes = ", ".join(f"{code} {name}" for name, code in CODES.items())
    return (
        f"Codes: {codes}; G = guard, C = civilian, the arrow is where he faces;"
        " ? unknown. After a code: + deduced by SAT (never seen), * guessed."
    )


def _world_line(world: HitmanMap) -> str:
    return (
        f"{world.name}: {world.n} wide x {world.m} high, {count(world.guard_count, 'guard')},"
        f" {count(world.civil_count, 'civilian')}"
    )


def _hitman_text(result: Exploration) -> str:
    from puzzles.hitman_world import render_grid

    world = result.world
    marks = {cell: HITMAN_MARKS["deduced"] for cell in result.deduced}
    marks.update({cell: HITMAN_MARKS["guessed"] for cell in result.guessed})
    lines = [
        f"Hitman phase 1 on {_world_line(world)}",
        "",
        render_grid(world.m, world.n, result.sent, marks),
        _hitman_legend(),
        "",
        f"Actions ({len(result.actions)}): {compact_actions(result.actions) or '(none)'}"
        "   [M move, R turn clockwise, L turn anti-clockwise]",
        f"Penalties: {result.penalties} ({len(result.actions)} for actions,"
        f" {result.penalties - len(result.actions)} for being seen by guards)",
        f"Score: {result.score} (at most 2·m·n = {result.max_score})",
        f"Cells: {len(result.seen)} seen, {len(result.deduced)} deduced,"
        f" {len(result.guessed)} guessed (of {world.m * world.n})",
    ]
    if result.all_correct:
        lines.append("The map sent is all correct.")
    else:
        wrong = ", ".join(f"({x},{y})" for x, y in result.wrong)
        lines.append(f"The map sent has {count(len(result.wrong), 'wrong cell')}: {wrong}.")
    return "\n".join(lines)


def _rows(m: int, n: int, cells: dict, missing: str | None = None) -> list[list[str | None]]:
    return [[cells.get((x, y), missing) for x in range(n)] for y in reversed(range(m))]


def _hitman_json(result: Exploration, cnf_path: str | None) -> dict[str, Any]:
    from puzzles.hitman_world import CODES

    world = result.world
    return {
        "map": world.name,
        "m": world.m,
        "n": world.n,
        "guard_count": world.guard_count,
        "civil_count": world.civil_count,
        "actions": result.actions,
        "action_count": len(result.actions),
        "compact_actions": compact_actions(result.actions),
        "invalid_moves": result.invalid_moves,
        "penalties": result.penalties,
        "score": result.score,
        "max_score": result.max_score,
        "seen": len(result.seen),
        "deduced": len(result.deduced),
        "guessed": len(result.guessed),
        "determined": result.determined,
        "all_correct": result.all_correct,
        "wrong_cells": [list(cell) for cell in result.wrong],
        "guessed_cells": [list(cell) for cell in sorted(result.guessed)],
        "deduced_cells": [list(cell) for cell in sorted(result.deduced)],
        "rows_top_to_bottom": _rows(world.m, world.n, result.sent),
        "codes": CODES,
        "variables": result.kb.top,
        "clauses": len(result.kb.clauses),
        "sat_calls": result.kb.sat_calls,
        "cnf": cnf_path,
    }


class _Replayed(NamedTuple):
    """A trace replayed: the trace, the map name it is checked against, that map (None when
    MAPS.json does not hold it) and the replay."""

    trace: Trace
    name: str | None
    world: HitmanMap | None
    result: Replay


def _hitman_replayed(
    maps_path: str, map_name: str | None, trace_path: str, index: int, what: dict[str, str | None]
) -> _Replayed:
    """The trace ``index`` of TRACE.jsonl, the map name it is checked against, that map (None
    when MAPS.json does not hold it) and its replay, checked against the map; ``what["map"]``
    is set to the name once it is known."""
    from puzzles.hitman_trace import load_traces, replay
    from puzzles.hitman_world import NoSuchMap, choose_map, load_maps

    traces = load_traces(trace_path)
    if index > len(traces):  # (a value the file does not hold, as --map's: audit 22-A #5)
        held = count(len(traces), "trace")
        raise FormatError(display_name(trace_path), None, f"--index {index}: the file holds {held}")
    trace = traces[index - 1]
    name = map_name if map_name is not None else trace.map_name
    what["map"] = name
    world = None
    try:  # (no map named: the file is read, and none of its maps is checked)
        maps = load_maps(maps_path, only=name if name is not None else "")
    except NoSuchMap:
        if map_name is not None:
            raise
        maps = {}  # (the trace's map is not in the file: nothing is checked, as documented)
    if map_name is not None or (name is not None and name in maps):
        world = choose_map(maps, name, display_name(maps_path))
    start = trace.start
    if world is not None and (start["m"], start["n"]) != (world.m, world.n):
        raise FormatError(
            trace.file,
            trace.line,
            f"the trace is {start['n']}x{start['m']} but map {world.name} is {world.n}x{world.m}",
        )
    result = replay(trace)
    kb = result.kb
    wrong = [] if world is None else sorted(c for c, v in kb.known.items() if world.cells[c] != v)
    if wrong:
        x, y = wrong[0]
        raise FormatError(
            trace.file,
            trace.line,
            f"the observations determine ({x},{y}) as {kb.known[wrong[0]]}"
            f" but map {world.name} has {world.cells[wrong[0]]} there: not a trace of this map",
        )
    return _Replayed(trace, name, world, result)


def _hitman_replay_report(
    maps_path: str,
    trace_path: str,
    index: int,
    replayed: _Replayed,
    cnf_path: str | None,
    as_json: bool,
) -> NoReturn:
    """Print what `_hitman_replayed` found, and exit with its code."""
    from puzzles.hitman_world import render_grid

    trace, name, world, result = replayed
    kb = result.kb
    start = trace.start
    cells = kb.m * kb.n
    determined = len(kb.known) == cells
    report = {
        "trace": display_name(trace_path),
        "index": index,
        "line": trace.line,
        "map": name,
        "kind": trace.kind,
        "m": kb.m,
        "n": kb.n,
        "actions": len(trace.steps),
        "penalties": trace.steps[-1][1]["penalties"] if trace.steps else start["penalties"],
        "seen": len(result.seen),
        "deduced": len(result.deduced),
        "unknown": cells - len(kb.known),
        "determined": determined,
        "checked_against": world.name if world is not None else None,
        "agrees": True if world is not None else None,
        "rows_top_to_bottom": _rows(kb.m, kb.n, kb.known),
        "deduced_cells": [list(cell) for cell in sorted(result.deduced)],
        "variables": kb.top,
        "clauses": len(kb.clauses),
        "sat_calls": kb.sat_calls,
        "cnf": cnf_path,
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        marks = {cell: HITMAN_MARKS["deduced"] for cell in result.deduced}
        if world is not None:
            check = f"Every determined cell agrees with map {world.name}."
        elif name is None:
            check = "No map to check against (the trace names no map): not checked."
        else:
            check = f"No map named {name!r} in {display_name(maps_path)}: not checked."
        click.echo(
            "\n".join(
                [
                    f"Replay of {report['trace']} trace {index} (line {trace.line}):"
                    f" map {name or '(unnamed)'}, {kb.n} wide x {kb.m} high,"
                    f" {count(len(trace.steps), 'action')}, penalties {report['penalties']}",
                    "",
                    render_grid(kb.m, kb.n, kb.known, marks),
                    _hitman_legend(),
                    "",
                    f"Cells: {report['seen']} seen, {report['deduced']} deduced,"
                    f" {report['unknown']} unknown (of {cells})",
                    check,
                ]
            )
        )
    # 10 says every cell was determined and is right: not when there was nothing to check
    leave(EXIT_SOLVED if determined and world is not None else EXIT_GUESSED)


commands: list[click.Command] = [puzzle_group]
