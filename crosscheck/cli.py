"""Commands that drive the `crosscheck` package: `satkit crosscheck`, `fuzz` and `shrink`.

Edge code: the only module of the package that prints. Results and the
summary go to stdout, progress (only when stderr is a terminal) and
``error:`` lines to stderr. Exit codes: 0 when every instance agrees and
validates (timeouts are reported but allowed), 1 when anything disagrees,
is invalid, crashes or cannot be read (one ``error: FILE:LINE: …`` line
per bad input), 2 for usage errors (unknown solver names among them).
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

import click

from crosscheck.batch import (
    BatchOptions,
    ResultLog,
    check_paths,
    latest_records,
    pending_paths,
    read_stdin_once,
)
from crosscheck.check import CheckOptions
from crosscheck.fuzz import (
    DEFAULT_TIMEOUT,
    FAMILIES,
    FuzzOptions,
    check_command,
    is_failure,
    run_fuzz,
    save_failure,
)
from crosscheck.instances import discover, load_instance
from crosscheck.plot import PlotUnavailable, load_pyplot, plot_format, write_plots
from crosscheck.registry import canonical_name, unavailable_reason
from crosscheck.report import failure_lines, notice_lines, summarize, summary_lines
from crosscheck.shrink import shrink_instance
from crosscheck.validate import CheckerMissing, load_checker
from formats.cli import fail, report_errors
from formats.dimacs import write_dimacs
from formats.formula import Formula
from formats.streams import check_output
from maze.cli import encoding_option

DEFAULT_SOLVERS = "dpll:cdcl,minisat22"


# ------------------------------------------------------------------------------ helpers


def _solvers(_ctx: click.Context, _param: click.Parameter, values: Sequence[str]) -> list[str]:
    """``--solvers a,b --solvers c`` -> canonical names, each once; unknown or unavailable
    names are usage errors."""
    names: list[str] = []
    for value in values:
        for name in (part.strip() for part in value.split(",")):
            if not name:
                continue
            try:
                canonical = canonical_name(name)
            except ValueError as exc:
                raise click.BadParameter(str(exc)) from None
            reason = unavailable_reason(canonical)
            if reason:
                raise click.BadParameter(reason)
            if canonical not in names:
                names.append(canonical)
    if not names:
        raise click.BadParameter("name at least one solver")
    return names


def _plot_path(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """``--plot FILE``: its suffix must name a picture format (checked before anything runs)."""
    if value is None:
        return None
    if value == "-":
        raise click.BadParameter(
            "the picture cannot go to stdout (it holds the summary): name a .png, .svg or .pdf file"
        )
    try:
        plot_format(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _common(func: Any, seed_flag: str = "--seed") -> Any:
    """Options every command shares: solvers, timeout, proofs, our solvers' seed, quiet."""
    options = [
        click.option(
            "--solvers",
            "-s",
            multiple=True,
            default=(DEFAULT_SOLVERS,),
            show_default=True,
            callback=_solvers,
            help="Comma-separated solver names (repeatable): dpll, dpll:cdcl/vsids-numbered, "
            "dpll:classic/<heuristic>, "
            "any PySAT name (minisat22, cadical153, glucose4, …), bin:minisat, bin:cadical, "
            "bin:kissat, bin:picosat, or bin:PROGRAM / bin:/path/to/solver for any other "
            "program, run as PROGRAM FILE.cnf with SAT-competition output (s and v lines).",
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(min=0, min_open=True),
            default=DEFAULT_TIMEOUT,
            show_default=True,
            help="Seconds per solver run; the run is stopped (killed) after it.",
        ),
        click.option("--proofs", is_flag=True, help="Check our UNSAT proofs with dratify."),
        click.option(
            seed_flag, "seed", type=int, default=0, show_default=True, help="Seed of our solvers."
        ),
        click.option("--quiet", "-q", is_flag=True, help="No progress and no warnings on stderr."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _need_tools(proofs: bool, plot: str | None = None) -> None:
    """Fail early (exit 1) when --proofs or --plot lacks its optional dependency."""
    try:
        if proofs:
            load_checker()
        if plot:
            load_pyplot()
    except (CheckerMissing, PlotUnavailable) as exc:
        fail(str(exc))


class _Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, total: int, quiet: bool, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.shown = not quiet and self.stream.isatty() and total > 0
        self.done = 0
        self.failed = 0
        self.started = time.monotonic()
        self.last = 0.0

    def advance(self, failed: bool) -> None:
        self.done += 1
        self.failed += failed
        now = time.monotonic()
        if self.shown and (now - self.last > 0.1 or self.done == self.total):
            self.last = now
            width = 30
            filled = width * self.done // self.total
            bar = "=" * filled + (">" if filled < width else "") + " " * (width - filled - 1)
            self.stream.write(
                f"\r[{bar[:width]}] {self.done}/{self.total}  {self.failed} failed  "
                f"{now - self.started:.1f} s"
            )
            self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _note(instance: str, note: str) -> str:
    """A loader's note as a ``warning:`` line that names the file."""
    return f"warning: {note}" if note.startswith(instance + ":") else f"warning: {instance}: {note}"


def _echo_lines(lines: Iterable[str], err: bool = False) -> None:
    for line in lines:
        click.echo(line, err=err)


# ---------------------------------------------------------------------------- crosscheck


@click.command("crosscheck")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@_common
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Instances checked in parallel, each in its own worker process.",
)
@click.option(
    "--json",
    "json_path",
    metavar="FILE",
    help="Append one JSON record per instance to FILE as it finishes ('-' = stdout).",
)
@click.option("--resume", is_flag=True, help="Skip instances already recorded in the --json file.")
@click.option(
    "--plot",
    "plot_path",
    metavar="FILE",
    callback=_plot_path,
    help="Write a cactus plot and a scatter to FILE.png, FILE.svg or FILE.pdf (by its suffix).",
)
@encoding_option("How maze files are encoded.")
@click.option("--maze", "maze_path", metavar="MAZE", help="The maze of the maze CNFs given.")
@click.option("--strict", is_flag=True, help="Read DIMACS strictly (header mismatches are errors).")
@report_errors
def crosscheck_command(
    paths: tuple[str, ...],
    solvers: list[str],
    timeout: float,
    proofs: bool,
    seed: int,
    quiet: bool,
    jobs: int,
    json_path: str | None,
    resume: bool,
    plot_path: str | None,
    encoding: str,
    maze_path: str | None,
    strict: bool,
) -> None:
    """Run our DPLL beside reference solvers on CNF files, maze CNFs and mazes, and check
    every answer: SAT/UNSAT agreement, every model against the input clauses, our UNSAT
    proofs with dratify (--proofs), and every maze answer decoded to a path and validated
    (the layered search gives the reference answer).

    PATH may be a file (.cnf, .cnf.gz/.xz/.bz2, a DP input, a maze .txt) or a folder,
    searched recursively. Exit 0 when everything agrees and validates (timeouts are
    listed but do not fail), 1 when anything disagrees, is invalid, crashes or cannot
    be read.
    """
    if resume and not json_path:
        raise click.UsageError("--resume needs --json FILE (the records to resume from)")
    if resume and json_path == "-":
        raise click.UsageError("--resume needs a --json file, not stdout")
    if maze_path is not None and not os.path.isfile(maze_path):
        fail(f"{maze_path}: no such maze file")
    _need_tools(proofs, plot_path)
    if plot_path:
        check_output(plot_path, inputs=paths)  # before the batch, not after it
    files = discover(paths)
    if not files:
        fail(f"{' '.join(paths)}: no instances found (.cnf, .cnf.gz/.xz/.bz2, .dimacs, maze .txt)")
    options = BatchOptions(
        CheckOptions(solvers, timeout, proofs, seed), encoding, maze_path, strict, jobs
    )
    log = ResultLog(json_path, resume=resume) if json_path else None
    previous = log.previous if log else []
    todo = pending_paths(files, previous, solvers) if resume else files
    out_err = json_path == "-"  # stdout carries the records: the summary goes to stderr
    if resume and not quiet:
        click.echo(f"resuming: {len(files) - len(todo)} of {len(files)} already recorded", err=True)
    progress = _Progress(len(todo), quiet)
    records: list[dict[str, Any]] = []
    started = time.monotonic()
    interrupted = False
    stdin_data = read_stdin_once(todo)
    try:
        for record in check_paths(todo, options, stdin_data=stdin_data):
            if log:
                log.append(record)
            records.append(record)
            if record["verdict"] == "bad-input":
                progress.close()
                click.echo(f"error: {record['error']}", err=True)
            elif record.get("notes") and not quiet:
                progress.close()
                _echo_lines((_note(record["instance"], n) for n in record["notes"]), err=True)
            progress.advance(record["verdict"] not in ("agree", "timeout"))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        progress.close()
        if log:
            log.close()
    elapsed = time.monotonic() - started
    everything = latest_records([*previous, *records], files, solvers)
    summary = summarize(everything, solvers)
    if plot_path:  # first: a closed stdout (`| head`) must not cost the picture
        write_plots(everything, plot_path, solvers=solvers)
    _echo_lines(summary_lines(summary, elapsed), err=out_err)
    _echo_lines(failure_lines(summary), err=out_err)
    if plot_path and not quiet:
        click.echo(f"plot: {plot_path}", err=True)
    if interrupted:
        click.echo(
            f"interrupted after {len(records)} of {len(todo)} instances"
            + ("; --resume carries on" if json_path and json_path != "-" else ""),
            err=True,
        )
        sys.exit(1)
    sys.exit(0 if summary.ok else 1)


# ---------------------------------------------------------------------------------- fuzz


@click.command("fuzz")
@click.option("--count", "-n", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", "fuzz_seed", type=int, default=0, show_default=True,
              help="Instance i uses seed SEED+i.")  # fmt: skip
@click.option(
    "--family",
    "families",
    type=click.Choice(FAMILIES),
    multiple=True,
    help="Instance families to cycle through (repeatable; default: all).",
)
@click.option(
    "--max-vars",
    type=click.IntRange(min=3),
    default=200,
    show_default=True,
    help="Most variables an instance may have (maze: At/Has atoms).",
)
@click.option(
    "--out",
    "out_dir",
    default="fuzz-failures",
    show_default=True,
    help="Folder for failing instances, their shrunk forms and maze files.",
)
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--json", "json_path", metavar="FILE", help="Append one JSON record per instance.")
@click.option(
    "--max-checks",
    type=click.IntRange(min=1),
    default=5000,
    show_default=True,
    help="Most cross-checks spent shrinking one failure.",
)
@functools.partial(_common, seed_flag="--solver-seed")
@report_errors
def fuzz_command(
    count: int,
    fuzz_seed: int,
    families: tuple[str, ...],
    max_vars: int,
    out_dir: str,
    jobs: int,
    json_path: str | None,
    max_checks: int,
    solvers: list[str],
    timeout: float,
    proofs: bool,
    seed: int,
    quiet: bool,
) -> None:
    """Cross-check random instances: cnfuzz-style layered CNFs (`c seed N`), random k-SAT
    near the threshold, random mazes. Each failure is saved in --out, shrunk with a
    delta debugger, and printed with a one-line command that reproduces it.

    Exit 0 when every instance agrees and validates, 1 otherwise.
    """
    _need_tools(proofs)
    options = FuzzOptions(
        count, fuzz_seed, families or FAMILIES, max_vars, jobs,
        CheckOptions(solvers, timeout, proofs, seed),
    )  # fmt: skip
    log = ResultLog(json_path, resume=False) if json_path else None
    progress = _Progress(count, quiet)
    records: list[dict[str, Any]] = []
    started = time.monotonic()
    interrupted = False
    try:
        for record in run_fuzz(options):
            if log:
                log.append(record)
            records.append(record)
            progress.advance(is_failure(record))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        progress.close()
        if log:
            log.close()
    elapsed = time.monotonic() - started
    out_err = json_path == "-"
    per_family = Counter(record["family"] for record in records)
    shown = ", ".join(f"{family} {per_family[family]}" for family in options.families)
    summary = summarize(records, solvers)
    failures = [record for record in records if is_failure(record)]
    click.echo(
        f"fuzz: {len(records)} instances ({shown}) from seed {fuzz_seed}; "
        f"{len(failures)} failures; {elapsed:.1f} s",
        err=out_err,
    )
    _echo_lines(summary_lines(summary), err=out_err)
    _echo_lines(notice_lines(summary), err=out_err)
    for record in sorted(failures, key=lambda r: r["seed"]):
        what = ", ".join(
            f"{name} {run['outcome']}"
            for name, run in record["runs"].items()
            if run["outcome"] not in ("agree", "timeout")
        ) or record.get("error", record["verdict"])
        click.echo(f"FAIL {record['family']} seed {record['seed']}: {what}", err=out_err)
        saved = save_failure(record, options, out_dir, max_checks=max_checks)
        if saved.shrunk is not None:
            click.echo(
                f"  shrunk {saved.shrunk.original_clauses} -> {len(saved.shrunk.clauses)} "
                f"clauses over {saved.shrunk.nvars} variables ({saved.shrunk.checks} checks)",
                err=out_err,
            )
        click.echo(f"  saved: {' '.join(saved.files)}", err=out_err)
        click.echo(f"  reproduce: {saved.reproduce}", err=out_err)
    if interrupted:
        click.echo(f"interrupted after {len(records)} of {count} instances", err=True)
        sys.exit(1)
    sys.exit(1 if failures else 0)


# -------------------------------------------------------------------------------- shrink


def _default_output(path: str) -> str:
    if path == "-":
        return "-"
    folder, base = os.path.split(path)
    for suffix in (".gz", ".xz", ".bz2"):
        base = base.removesuffix(suffix)
    stem = base.rsplit(".", 1)[0] if "." in base else base
    return os.path.join(folder, stem + ".min.cnf")


@click.command("shrink")
@click.argument("path", metavar="FILE")
@_common
@click.option("-o", "--output", help="Where the shrunk CNF goes (default: FILE's stem + .min.cnf).")
@encoding_option("How a maze file is encoded before shrinking its CNF.")
@click.option("--max-checks", type=click.IntRange(min=1), default=5000, show_default=True,
              help="Most cross-checks to spend.")  # fmt: skip
@report_errors
def shrink_command(
    path: str,
    solvers: list[str],
    timeout: float,
    proofs: bool,
    seed: int,
    quiet: bool,
    output: str | None,
    encoding: str,
    max_checks: int,
) -> None:
    """Cut a failing CNF down (cnfdd-style: clauses by halving, then literals, then variables
    renumbered) while the same solvers still fail on it the same way; write the minimal CNF
    with the one-line command that reproduces the failure.

    Exit 0 when a failure was shrunk, 1 when FILE shows no failure or cannot be read.
    """
    _need_tools(proofs)
    check_output(output or _default_output(path), inputs=[path])  # before the shrinking
    instance = load_instance(path, encoding=encoding)
    check = CheckOptions(solvers, timeout, proofs, seed)
    result = shrink_instance(instance, check, max_checks=max_checks)
    if result is None:
        fail(f"{instance.name}: no failure to shrink: every solver agrees and validates")
        return
    target = output or _default_output(path)
    reproduce = check_command(target, check)
    described = ", ".join(f"{solver} {outcome}" for solver, outcome in sorted(result.failures))
    minimal = Formula(
        nvars=result.nvars,
        clauses=result.clauses,
        comments=[
            f"reproduce: {reproduce}",
            f"shrunk from {instance.name}: {result.original_clauses} -> {len(result.clauses)} "
            f"clauses in {result.checks} checks ({described})",
        ],
    )
    write_dimacs(minimal, target, inputs=[path])
    err = target == "-"
    click.echo(
        f"shrunk {instance.name}: {result.original_clauses} -> {len(result.clauses)} clauses "
        f"over {result.nvars} variables in {result.checks} checks ({described})",
        err=err,
    )
    if not err:
        click.echo(f"saved: {target}")
    click.echo(f"reproduce: {reproduce}", err=err)


commands: list[click.Command] = [crosscheck_command, fuzz_command, shrink_command]
