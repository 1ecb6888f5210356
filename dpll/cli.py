"""Commands that drive the `dpll` package (edge code: the only place here that prints)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

import click

from dpll.solver import CDCL_HEURISTICS, CLASSIC_HEURISTICS, MODES, Solver, TooManyVariables
from formats.assignment import dp_clause_line, read_dp_input, write_dp_output
from formats.cli import (
    EXIT_INTERRUPTED,
    PATH,
    SEED,
    STOP_SIGNALS,
    STRICT_HELP,
    Seconds,
    Ticker,
    answered,
    at_terminal,
    fail,
    print_warnings,
    report_errors,
    signal_raises,
)
from formats.detect import named_dimacs, read_dimacs_or_dp
from formats.dimacs import clause_line
from formats.errors import FormatError
from formats.formula import Formula
from formats.memory import available_memory, shortage
from formats.results import SolverResult, competition_text, minisat_result_text
from formats.streams import (
    atomic_output,
    check_output,
    display_name,
    is_stdout,
    same_file,
)

EXIT_SAT = 10
EXIT_UNSAT = 20
EXIT_UNKNOWN = 0
VARIABLE_BYTES = {"classic": 100, "cdcl": 240}
"""A lower bound on the solver's memory per variable, by mode (measured: 119 bytes
classic; cdcl 240 at 5 million variables, 288-420 at peak), for refusing a variable
count that cannot fit."""


def _refuse_if_too_big(input_path: str, formula: Formula, mode: str, *, dp: bool) -> None:
    """FormatError (one error line, exit 1) when the formula's variables surely cannot fit
    in memory, at the line that sets their count (``dp``: a DP input, with no header).

    The count is the header's or the largest literal's: ``p cnf 2000000000 1`` is valid
    DIMACS, but a solver over it needs hundreds of GB, and Python's MemoryError (or the
    kernel's OOM killer) is no answer.
    """
    need, have = formula.nvars * VARIABLE_BYTES[mode], available_memory()
    if shortage("", need, have) is None:
        return
    top = formula.max_var
    if formula.nvars > top and formula.header_line is not None:
        line, what = formula.header_line, "the header's count"
    else:
        index = next(i for i, c in enumerate(formula.clauses, 1) if top in c or -top in c)
        where = dp_clause_line if dp else clause_line  # (a reading again: the error path only)
        line, what = where(input_path, index), "the largest atom" if dp else "the largest literal"
    why = shortage(f"{formula.nvars:,} variables ({what})", need, have)
    raise FormatError(display_name(input_path), line, str(why))


def _append(solver: Solver, formula: Formula, input_path: str) -> None:
    """The formula into the solver; a FormatError naming the input when its variables
    cannot be allocated after all (a process memory limit, `check_variable_room`)."""
    try:
        solver.append_formula(formula)
    except TooManyVariables as exc:
        raise FormatError(display_name(input_path), None, f"{exc}; try a smaller input") from None


def _progress(solver: Solver, command: str, quiet: bool = False) -> Ticker | None:
    """At a terminal (and not ``quiet``): a line on stderr, rewritten every second while
    the solver runs, with its conflicts, conflicts/s, learned clauses and restarts (the
    solver's hot loop is untouched: the ticker only reads its counters)."""

    def describe(elapsed: float) -> str:
        stats = solver.accum_stats()
        rate = stats.get("conflicts", 0) / elapsed if elapsed > 0 else 0.0
        return (
            f"{command}: {elapsed:.0f} s, {stats.get('conflicts', 0):,} conflicts"
            f" ({rate:,.0f}/s), {stats.get('learned', 0):,} learned,"
            f" {stats.get('restarts', 0):,} restarts"
        )

    return at_terminal(describe, quiet)


@contextlib.contextmanager
def _interrupt_on_sigint(solver: Solver) -> Iterator[list[int]]:
    """First Ctrl-C (or SIGTERM, SIGHUP): ask the solver to stop (it answers unknown); second:
    KeyboardInterrupt.

    Yields the list of signals received so far.
    """
    presses: list[int] = []

    def handler(signum: int, frame: Any) -> None:
        presses.append(signum)
        if len(presses) > 1:
            raise KeyboardInterrupt
        solver.interrupt()

    try:
        previous = {
            sig: signal.signal(sig, handler)
            for sig in (signal.SIGINT, *STOP_SIGNALS)
            if signal.getsignal(sig) != signal.SIG_IGN  # (nohup: SIGHUP stays ignored)
        }
    except ValueError:  # not the main thread: leave signals alone
        yield presses
        return
    try:
        yield presses
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


class _DeadlineReached(Exception):
    """--timeout ran out while the input was read or loaded (raised by `_alarm`)."""


@contextlib.contextmanager
def _alarm(seconds: float | None) -> Iterator[None]:
    """Raise `_DeadlineReached` in the block once ``seconds`` have passed (None: never).

    Reading and loading a big file take seconds before the solver's own deadline
    starts to count; a timer signal stops them too. Outside the main thread, or where
    there is no SIGALRM, the block runs without it.
    """
    if seconds is None or not hasattr(signal, "setitimer"):
        yield
        return
    with signal_raises(signal.SIGALRM, _DeadlineReached) as armed:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6))
        try:
            yield
        finally:
            if armed:
                signal.setitimer(signal.ITIMER_REAL, 0)


def _statistics(solver: Solver, seconds: float) -> list[str]:
    stats = solver.accum_stats()
    lines = [f"{key}: {value}" for key, value in stats.items()]
    lines.append(f"solve time: {seconds:.3f} s")
    if seconds > 0:
        lines.append(f"conflicts per second: {stats.get('conflicts', 0) / seconds:.0f}")
    return lines


@click.command(
    "solve", short_help="Solve a DIMACS CNF file with our DPLL (SAT-competition output).",
)
@click.argument("input_path", metavar="[FILE", default="-", required=False)
@click.argument("result_path", metavar="[RESULT]]", type=PATH, required=False)
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default="cdcl",
    show_default=True,
    help="cdcl: clause learning (fast); classic: textbook DPLL, chronological backtracking.",
)
@click.option(
    "--heuristic",
    type=click.Choice([*CDCL_HEURISTICS, *CLASSIC_HEURISTICS]),
    default=None,
    help="Branching heuristic. cdcl: vsids (default; first decisions by occurrence counts), "
    "vsids-numbered (first decisions by variable number: planning formulas numbered by "
    "time); classic: course (default), random, two-clause, jw, dlis (two-clause and dlis "
    "scan the whole formula at each decision: for seed-sized inputs, not big files).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option(
    "--timeout",
    type=Seconds(),
    metavar="S",
    default=None,
    help="Give up after S seconds (reading included): 's UNKNOWN', exit 0.",
)
@click.option(
    "--conflicts",
    type=click.IntRange(min=0),
    metavar="N",
    default=None,
    help="Give up after N conflicts: 's UNKNOWN', exit 0 (0: UNSAT when the formula is "
    "refuted without search, by unit propagation in cdcl, by an empty clause in classic; "
    "else UNKNOWN).",
)
@click.option(
    "--proof",
    "proof_path",
    metavar="FILE",
    type=PATH,
    default=None,
    help="Write the DRUP proof to FILE as it is found, made whole at the end; FILE is left "
    "empty when the answer is not UNSATISFIABLE.",
)
@click.option("--binary-proof", is_flag=True, help="Write the proof in binary DRAT.")
@click.option(
    "--stats/--quiet",
    " /-q",
    "show_stats",
    default=True,
    show_default=True,
    help="--quiet: only the 's' and 'v' lines; no statistics, warnings or progress.",
)
@click.option("--strict", is_flag=True, help=STRICT_HELP)
@report_errors
def solve(
    input_path: str,
    result_path: str | None,
    mode: str,
    heuristic: str | None,
    seed: int,
    timeout: float | None,
    conflicts: int | None,
    proof_path: str | None,
    binary_proof: bool,
    show_stats: bool,
    strict: bool,
) -> None:
    """Solve a DIMACS CNF FILE ('-' or none = stdin; .gz/.bz2/.xz read transparently; a
    file laid out as the assignment's DP input is read as one, with a warning).

    Prints SAT-competition output on stdout: 'c' comment lines, one 's' line
    (SATISFIABLE, UNSATISFIABLE or UNKNOWN) and 'v' lines with the model.
    Exit status: 10 satisfiable, 20 unsatisfiable, 0 unknown (timeout,
    conflict limit, Ctrl-C, SIGTERM, a soft CPU-time limit), 1 bad input, 2 usage error,
    130 when a stop comes while the answer is being printed (it is cut off) or
    in satkit's first moments, before the command has started.
    RESULT, as MiniSat's second file, gets SAT and the model, UNSAT or INDET.
    """
    started = time.monotonic()
    if heuristic is not None:
        allowed = CDCL_HEURISTICS if mode == "cdcl" else CLASSIC_HEURISTICS
        if heuristic not in allowed:
            raise click.UsageError(
                f"--heuristic {heuristic} is not a {mode} heuristic "
                f"(choose from {', '.join(allowed)})"
            )
    if binary_proof and proof_path is None:
        raise click.UsageError("--binary-proof needs --proof FILE")
    if proof_path is not None and is_stdout(proof_path):
        raise click.UsageError(
            f"--proof {proof_path} would mix the proof with the answer on stdout"
        )
    if result_path is not None and is_stdout(result_path):
        raise click.UsageError(f"RESULT {result_path} would mix MiniSat's answer with ours")
    if result_path is not None and named_dimacs(result_path) and os.path.exists(result_path):
        # `satkit solve *.cnf` matching two files must not overwrite the second one
        raise click.UsageError(
            f"RESULT {result_path} is an existing CNF file, not overwritten with MiniSat's "
            "result (solve takes one FILE; a second name is the result file)"
        )
    if proof_path is not None and result_path is not None and _same_output(proof_path, result_path):
        raise click.UsageError("--proof and RESULT name the same file")
    for output in (proof_path, result_path):
        if output is not None:
            check_output(output, inputs=[input_path])  # now, not after an hour's solve
    if input_path == "-" and show_stats and _typed_at_a_terminal():  # (after the checks)
        click.echo("reading DIMACS from standard input (Ctrl-D ends it)", err=True)

    gave_up: str | None = None
    answer: bool | None = None
    seconds = 0.0
    interrupted = False
    unwritten: OSError | None = None
    try:
        with _proof_output(proof_path, input_path, binary_proof) as proof_out:
            solver = Solver(
                mode=mode, heuristic=heuristic, seed=seed, with_proof=proof_path is not None,
                proof_file=proof_out, binary_proof=binary_proof,
            )  # fmt: skip
            gave_up = _load(solver, input_path, strict, show_stats, mode, timeout, started)
            if gave_up is None:
                answer, seconds, interrupted = _run(
                    solver, mode, heuristic, show_stats, conflicts, timeout, started
                )
            if answer is not False:
                raise _NoProof  # FILE must not keep an older run's proof: it is left empty
    except OSError as exc:
        if proof_path is None or answer is not False:
            raise  # (a proof that could not be written while solving: one error line)
        unwritten = exc  # a full disk at the end: the answer still stands, and is printed

    if gave_up is not None:
        result = SolverResult("UNKNOWN", comments=[gave_up] if show_stats else [])
    else:
        comments = _statistics(solver, seconds) if show_stats else []
        if answer is None:
            if show_stats:
                why = "interrupted" if interrupted else _limit_reached(solver, conflicts)
                comments.append(f"stopped: {why}")
            result = SolverResult("UNKNOWN", comments=comments)
        elif answer:
            result = SolverResult("SAT", solver.get_model(), comments)
        else:
            if proof_path is not None and show_stats:
                kind = "binary DRAT" if binary_proof else "DRUP"
                done = " not written" if unwritten else ""
                comments.append(f"proof ({kind}){done}: {proof_path}")
            result = SolverResult("UNSAT", comments=comments)
    writing_result = False
    try:
        click.echo(competition_text(result), nl=False)
        if result_path is not None:  # after the answer: a full disk here loses only RESULT
            writing_result = True
            with atomic_output(result_path, inputs=[input_path]) as out:
                out.write(minisat_result_text(result))
            writing_result = False
        if unwritten is not None:
            raise unwritten  # one error line naming the proof file, exit 1: asked, and missing
        answered(_EXIT_CODES[result.status])
    except KeyboardInterrupt:
        if writing_result:  # (the answer is whole: only RESULT is missing)
            fail(f"interrupted while writing {result_path}: it is not written", EXIT_INTERRUPTED)
        # the answer is being printed (a slow reader): say it is cut off
        fail("interrupted while printing the answer: standard output is cut off", EXIT_INTERRUPTED)


_EXIT_CODES = {"SAT": EXIT_SAT, "UNSAT": EXIT_UNSAT, "UNKNOWN": EXIT_UNKNOWN}


def _limit_reached(solver: Solver, conflicts: int | None) -> str:
    """Which limit stopped the solve: --conflicts once that many were spent, else the
    deadline (audit 22-B #5: "--timeout or --conflicts" when only --timeout was given)."""
    spent = solver.accum_stats().get("conflicts", 0)
    if conflicts is not None and spent >= conflicts:
        return f"limit reached (--conflicts {conflicts})"
    return "limit reached (--timeout)"


def _typed_at_a_terminal() -> bool:
    """Whether standard input is a terminal (a forgotten FILE: minisat and cadical say
    they read stdin then, rather than wait without a word)."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _same_output(a: str, b: str) -> bool:
    """Whether two output names are one file (an existing one, or the same new path)."""
    return same_file(a, b) or os.path.realpath(a) == os.path.realpath(b)


class _NoProof(Exception):
    """Raised in `_proof_output`'s block when the run ends without a proof to keep."""


@contextlib.contextmanager
def _proof_output(proof_path: str | None, input_path: str, binary: bool) -> Iterator[Any]:
    """The ``--proof`` file, open for the solver to write lemmas to as it finds them (so
    a long run's proof costs no memory), made whole only at the end (atomic). A run that
    ends without UNSAT (`_NoProof`) leaves FILE empty: never a proof of an earlier run.
    Yields None without ``--proof``."""
    if proof_path is None:
        with contextlib.suppress(_NoProof):
            yield None
        return
    try:
        with atomic_output(proof_path, inputs=[input_path], binary=binary) as out:
            yield out
    except _NoProof:
        with atomic_output(proof_path, inputs=[input_path], binary=binary):
            pass


def _load(
    solver: Solver,
    input_path: str,
    strict: bool,
    show_stats: bool,
    mode: str,
    timeout: float | None,
    started: float,
) -> str | None:
    """Read the input into ``solver``; None, or why it gave up (Ctrl-C, the deadline)."""
    try:
        with _alarm(None if timeout is None else timeout - (time.monotonic() - started)):
            formula = read_dimacs_or_dp(input_path, strict=strict, keep_comments=False)
            print_warnings(formula.warnings, quiet=not show_stats)
            dp = formula.back_matter is not None and formula.declared_clauses is None
            _refuse_if_too_big(input_path, formula, mode, dp=dp)
            _append(solver, formula, input_path)
            del formula  # the engine holds what it needs: a big formula is not kept twice
    except KeyboardInterrupt:
        return "stopped: interrupted while reading"
    except _DeadlineReached:
        return "stopped: limit reached (--timeout) while reading"
    return None


def _run(
    solver: Solver,
    mode: str,
    heuristic: str | None,
    show_stats: bool,
    conflicts: int | None,
    timeout: float | None,
    started: float,
) -> tuple[bool | None, float, bool]:
    """Solve under the limits: (the answer or None, solve seconds, whether Ctrl-C came)."""
    answer: bool | None = None
    solve_start = time.monotonic()
    with _interrupt_on_sigint(solver) as presses:
        try:
            if show_stats:
                heading = f"satkit solve, mode {mode}"
                if heuristic:
                    heading += f", heuristic {heuristic}"
                click.echo(f"c {heading}")
                click.echo(f"c variables: {solver.nof_vars()}, clauses: {solver.nof_clauses()}")
                sys.stdout.flush()
            if conflicts is not None:
                solver.conf_budget(conflicts)
            if timeout is not None:
                solver.time_budget(max(timeout - (time.monotonic() - started), 1e-9))
            solve_start = time.monotonic()
            if conflicts == 0:  # (a budget of 0 is no budget to PySAT): only what
                # propagation at the top level decides (cdcl; classic has no propagate)
                if mode == "cdcl":
                    refuted = not solver.propagate()[0]
                else:  # classic: only an empty clause (its `add_clause` propagates nothing)
                    refuted = not solver._top_level_ok()
                answer = False if refuted else None
            else:
                progress = _progress(solver, "satkit solve", quiet=not show_stats)
                with progress or contextlib.nullcontext():
                    answer = solver.solve_limited(expect_interrupt=True)
        except KeyboardInterrupt:  # a second Ctrl-C before the solver stopped
            answer = None
        seconds = time.monotonic() - solve_start
    return answer, seconds, bool(presses)


# ---------------------------------------------------------------- satkit dp


@click.command("dp", short_help="The assignment's Davis-Putnam program: DP input to DP output.")
@click.argument("input_path", metavar="IN")
@click.option(
    "-o",
    "--output",
    "output_path",
    metavar="OUT",
    default="-",
    show_default=True,
    help="Where the DP output goes ('-' = stdout); written atomically, never over IN.",
)
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default="classic",
    show_default=True,
    help="classic: textbook DPLL (the course's procedure); cdcl: clause learning.",
)
@click.option(
    "--heuristic",
    type=click.Choice([*CDCL_HEURISTICS, *CLASSIC_HEURISTICS]),
    default=None,
    help="Branching heuristic. classic: course (default: the course's order, which "
    "reproduces its reference outputs), random, two-clause, jw, dlis (two-clause and dlis "
    "scan the whole formula at each decision: for seed-sized inputs); cdcl: vsids, "
    "vsids-numbered.",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Random seed.")
@click.option("-q", "--quiet", is_flag=True, help="No warnings or progress on stderr.")
@click.option(
    "--stats",
    "show_stats",
    is_flag=True,
    help="Print the solver's statistics on stderr (classic: 'splits', seed 003's count of "
    "splitting-rule applications); the DP output is unchanged.",
)
@report_errors
def dp(
    input_path: str,
    output_path: str,
    mode: str,
    heuristic: str | None,
    seed: int,
    quiet: bool,
    show_stats: bool,
) -> None:
    """The assignment's Davis-Putnam program: DP input IN in, DP output out.

    IN holds one clause per line (signed atom numbers), a line '0', then back
    matter. The output lists every atom 1..max as 'n T' or 'n F', a line '0'
    and the back matter verbatim (its last line given a line end if it had none);
    when the clauses are unsatisfiable, just '0' and the back matter. IN may be '-'
    (stdin) or compressed.

    The default (classic DPLL, the course's order) matches the course's outputs; it has
    no clause learning, so on big inputs (a maze with a long K) it can run for hours
    where --mode cdcl takes seconds or minutes.

    Exit status: 0 when the output is written (satisfiable or not), 1 bad
    input, 2 usage error, 130 when Ctrl-C or SIGTERM stops it (OUT is then whole or
    not written at all, and the message says which).
    """
    if heuristic is not None:
        allowed = CDCL_HEURISTICS if mode == "cdcl" else CLASSIC_HEURISTICS
        if heuristic not in allowed:
            raise click.UsageError(
                f"--heuristic {heuristic} is not a {mode} heuristic "
                f"(choose from {', '.join(allowed)})"
            )
    check_output(output_path, inputs=[input_path])
    formula = read_dp_input(input_path)
    print_warnings(formula.warnings, quiet=quiet)
    _refuse_if_too_big(input_path, formula, mode, dp=True)
    back_matter = formula.back_matter or ""
    solver = Solver(mode=mode, heuristic=heuristic, seed=seed)
    _append(solver, formula, input_path)
    del formula  # the engine holds what it needs: a big formula is not kept twice
    solve_start = time.monotonic()
    with _progress(solver, "satkit dp", quiet) or contextlib.nullcontext():
        satisfiable = solver.solve()
    valuation = {abs(lit): lit > 0 for lit in solver.get_model() or ()} if satisfiable else None
    seconds = time.monotonic() - solve_start
    write_dp_output(valuation, back_matter, output_path, inputs=[input_path])
    if show_stats:
        for line in _statistics(solver, seconds):
            click.echo(line, err=True)
    answered(0)  # (the solver is not freed object by object first: see `answered`)


commands: list[click.Command] = [solve, dp]
