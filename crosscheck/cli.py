"""Commands that drive the `crosscheck` package: `satkit crosscheck`, `fuzz` and `shrink`.

Edge code: the only module of the package that prints. Results and the
summary go to stdout, progress (only when stderr is a terminal) and
``error:`` lines to stderr. Exit codes: 0 when every instance agrees and
validates (timeouts are reported but allowed), 1 when anything disagrees,
is invalid, crashes or cannot be read (one ``error: FILE:LINE: …`` line
per bad input), 2 for usage errors (unknown solver names among them), 130 when
Ctrl-C or SIGTERM stopped a batch before anything failed.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

import click

from crosscheck.batch import (
    BatchOptions,
    ResultLog,
    check_paths,
    forget_real_paths,
    instance_key,
    latest_records,
    pending_paths,
    read_stdin_once,
    record_key,
)
from crosscheck.check import CheckOptions, check_instance
from crosscheck.fuzz import (
    ALL_FAMILIES,
    DEFAULT_TIMEOUT,
    FAMILIES,
    FuzzOptions,
    check_command,
    failure_folder,
    is_failure,
    printable,
    run_fuzz,
    save_failure,
    save_timeout,
)
from crosscheck.generators import MIN_VARS
from crosscheck.instances import Instance, discover, is_instance_file, load_instance
from crosscheck.plot import PlotUnavailable, load_pyplot, plot_format, plot_point, write_plots
from crosscheck.registry import canonical_name, unavailable_reason
from crosscheck.report import Tally, failure_lines, family_lines, notice_lines, summary_lines
from crosscheck.shrink import failure_signature, shrink_instance
from crosscheck.validate import CheckerMissing, load_checker
from formats.cli import DRAWING as _DRAWING  # (held across forks: see formats.cli)
from formats.cli import (
    EXIT_INTERRUPTED,
    SEED,
    STRICT_HELP,
    Seconds,
    StatusLine,
    fail,
    leave,
    report_errors,
)
from formats.cli import is_terminal as _is_terminal
from formats.detect import named_dimacs
from formats.dimacs import write_dimacs
from formats.formula import Formula
from formats.streams import (
    COMPRESSED_SUFFIXES,
    STDIO,
    check_output,
    is_stdout,
    read_bytes,
    same_file,
)
from maze.cli import encoding_option

DEFAULT_SOLVERS = "dpll:cdcl,minisat22"


# ------------------------------------------------------------------------------ helpers


_SAVED_TIMEOUTS = 10
"""How many timed-out fuzz instances are saved and listed (the rest by seed only)."""


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


def _log_path(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """``--json FILE``: not named for a compressor (the log is written line by line as each
    instance finishes, and crosscheck's --resume appends to it, so it stays plain text)."""
    if value is not None and value.endswith(COMPRESSED_SUFFIXES):
        resume = " (and --resume carries it on)" if ctx.command.name == "crosscheck" else ""
        raise click.BadParameter(
            f"the log is written record by record as the run goes{resume}, so it stays plain"
            " text: name it without .gz/.bz2/.xz and compress it after"
        )
    return value


def _plot_path(_ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """``--plot FILE``: its suffix must name a picture format (checked before anything runs)."""
    if value is None:
        return None
    if is_stdout(value):
        raise click.BadParameter(
            "the picture cannot go to stdout (it holds the summary): name a .png, .svg or .pdf file"
        )
    try:
        plot_format(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _out_folder(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    """``--out DIR``: a folder, so not ``-``, which stands for stdin/stdout wherever a file
    is taken (it made a folder named ``-``, and commands naming ``-/ksat-1.min.cnf``)."""
    if value == STDIO:
        raise click.BadParameter(
            "'-' is stdin/stdout, not a folder: --out names the folder that failures are "
            "saved in (./- for a folder named '-')"
        )
    return value


_fail_on_timeout = click.option(
    "--fail-on-timeout",
    is_flag=True,
    help="Exit 1 when a run timed out or answered UNKNOWN (by default that fails nothing): "
    "for CI, where a solver that hangs is a regression.",
)

_fuzz_fail_on_timeout = click.option(
    "--fail-on-timeout",
    is_flag=True,
    help="Count a run that timed out or answered UNKNOWN as a failure (by default it fails "
    "nothing, and the instance is saved unshrunk): it is listed with the failures, shrunk "
    "like them, its commands carry this option, and the run exits 1. For CI, where a solver "
    "that hangs is a regression.",
)

_shrink_fail_on_timeout = click.option(
    "--fail-on-timeout",
    is_flag=True,
    help="Keep a run that times out or answers UNKNOWN as the failure (by default a timeout "
    "is no failure, and a file whose only trouble is one is refused): the formula behind a "
    "hang, shrunk under a short --timeout (each check that still hangs takes that long); "
    "the reproduce command carries the option and the --timeout.",
)


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
            type=Seconds(),
            metavar="S",
            default=DEFAULT_TIMEOUT,
            show_default=True,
            help="Seconds per solver run (above 0, at most 1,000,000); the run is stopped "
            "(killed) after it.",
        ),
        click.option(
            "--proofs",
            is_flag=True,
            help="Ask every solver that can give one (ours, PySAT's cadical/glucose/lingeling…, "
            "bin:cadical, bin:kissat) for a DRUP/DRAT proof of UNSAT and check it with dratify.",
        ),
        click.option(
            seed_flag, "seed", type=SEED, default=0, show_default=True, help="Seed of our solvers."
        ),
        click.option("--quiet", "-q", is_flag=True, help="No progress and no warnings on stderr."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _refuse_an_instance_as_log(json_path: str | None) -> None:
    """Usage error for ``--json`` naming an existing file that a batch would take as an
    instance (.cnf, .dimacs, a maze or DP .txt) and that holds no JSON records:
    ``--json *.cnf`` made the first instance the log (DESIGN: never overwrite an input), as
    ``satkit solve`` refuses a CNF as its RESULT. An earlier log of that name is replaced."""
    if json_path is None or not is_instance_file(json_path) or not os.path.isfile(json_path):
        return
    if _holds_something_else(json_path):
        kind = "CNF" if named_dimacs(json_path) else "instance"
        raise click.UsageError(
            f"--json {json_path} is an existing {kind} file, not overwritten with the records "
            "(--json takes the log's name; the instances come after it)"
        )


def _holds_something_else(path: str) -> bool:
    """True for a file that starts with something other than a JSON record (False for an
    empty or unreadable one: check_output names what is wrong with it)."""
    try:
        with open(path, "rb") as handle:
            start = handle.read(4096).lstrip()
    except OSError:
        return False
    return bool(start) and not start.startswith(b"{")


def _one_file(a: str, b: str) -> bool:
    """True when two output or input paths name one file, existing or not (``-`` is none)."""
    if STDIO in (a, b):
        return False
    return same_file(a, b) or os.path.realpath(a) == os.path.realpath(b)


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
    """One line of progress on stderr, drawn only when stderr is a terminal (never with
    ``quiet``): a bar for a batch (:meth:`advance`), or any status text (:meth:`show`,
    e.g. while shrinking). Redrawn at most ten times a second as work is done, and every
    half second meanwhile by a ticker thread, so that the count a skipped redraw left out
    shows up and the clock runs while the workers are busy (a bar read "22/41, 0.1 s"
    for the 6 s that the last instance took). Between `close` and the next draw nothing
    is drawn: the caller prints its own lines then."""

    TICK = 0.5

    def __init__(self, total: int, quiet: bool, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.shown = not quiet and _is_terminal(self.stream)
        self.done = 0
        self.failed = 0
        self.started = time.monotonic()
        self.last = 0.0
        self.drawn = False
        self.line = StatusLine(self.stream)
        self.text: Callable[[float], str] = lambda now: ""  # the line, at time ``now``
        self.lock = _DRAWING  # (one for every progress line: held across forks)
        self.ticker: threading.Thread | None = None

    def _draw(self, text: Callable[[float], str], *, force: bool = False) -> None:
        if not self.shown:
            return
        now = time.monotonic()
        with self.lock:
            self.text = text
            if force or now - self.last > 0.1:
                self.last = now
                self.line.show(text(now))
                self.drawn = True
            if self.drawn and self.ticker is None:
                self.ticker = threading.Thread(target=self._tick, daemon=True)
                self.ticker.start()

    def _tick(self) -> None:
        while True:
            time.sleep(self.TICK)
            with self.lock:
                if not self.drawn:  # closed: the caller is printing; the next draw restarts
                    self.ticker = None
                    return
                now = time.monotonic()
                self.last = now
                self.line.show(self.text(now))

    def _bar(self, now: float) -> str:
        width = 30
        filled = width * min(self.done, self.total) // self.total
        bar = "=" * filled + (">" if filled < width else "") + " " * (width - filled - 1)
        return (
            f"[{bar[:width]}] {self.done}/{self.total}  {self.failed} failed  "
            f"{now - self.started:.1f} s"
        )

    def advance(self, failed: bool) -> None:
        """One more of ``total`` done (``failed`` or not): redraw the bar."""
        self.done += 1
        self.failed += failed
        if self.total > 0:
            self._draw(self._bar, force=self.done == self.total)

    def show(self, text: str) -> None:
        """Draw ``text`` (with the seconds since the start) in place of what was there."""
        self._draw(lambda now: f"{text}  {now - self.started:.1f} s")

    def close(self) -> None:
        """Clear the line (so that what follows starts on a clean one)."""
        with self.lock:
            if self.shown and self.drawn:
                self.line.clear()
                self.drawn = False
            self.last = 0.0  # the next draw is not held back


def _shrink_progress(progress: _Progress, what: str) -> Callable[[int, int, int], None]:
    """A `crosscheck.shrink.shrink_instance` progress callback drawing on ``progress``."""

    def tell(checks: int, clauses: int, original: int) -> None:
        done = _plural(checks, "check")
        progress.show(f"shrinking {what}: {done}, {original} -> {clauses} clauses")

    return tell


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _note(instance: str, note: str) -> str:
    """A loader's note as a ``warning:`` line that names the file."""
    return f"warning: {note}" if note.startswith(instance + ":") else f"warning: {instance}: {note}"


def _echo(message: str = "", err: bool = False) -> None:
    """``click.echo``, but a line that the stream cannot encode (a file name that is not
    UTF-8 on a strict stdout) is written with backslash escapes, not a traceback."""
    try:
        click.echo(message, err=err)
    except UnicodeEncodeError:
        encoding = getattr(sys.stderr if err else sys.stdout, "encoding", None) or "utf-8"
        click.echo(message.encode(encoding, "backslashreplace").decode(encoding), err=err)


def _echo_lines(lines: Iterable[str], err: bool = False) -> None:
    for line in lines:
        _echo(line, err=err)


# ---------------------------------------------------------------------------- crosscheck


@click.command(
    "crosscheck", short_help="Run our DPLL beside reference solvers; check every answer.",
)
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
    callback=_log_path,
    help="Write one JSON record per instance to FILE as it finishes ('-' = stdout); "
    "FILE is replaced, unless --resume continues it.",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the --json FILE: keep its records, skip the instances it holds "
    "(for the same solvers and --seed; one that timed out under a shorter --timeout is "
    "checked again), and append the rest.",
)
@click.option(
    "--plot",
    "plot_path",
    metavar="FILE",
    callback=_plot_path,
    help="Write a cactus plot and a scatter to FILE.png, FILE.svg or FILE.pdf (by its suffix).",
)
@click.option(
    "--by-family",
    is_flag=True,
    help="After the summary, a table by family (the name of the folder each file sits in): "
    "instances, failed, timed out, and each solver's solved runs and median solve time.",
)
@encoding_option("How maze files are encoded.")
@click.option(
    "--maze", "maze_path", metavar="MAZE", help="The maze of the maze CNFs given ('-' = stdin)."
)
@click.option("--strict", is_flag=True, help=STRICT_HELP)
@_fail_on_timeout
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
    by_family: bool,
    encoding: str,
    maze_path: str | None,
    strict: bool,
    fail_on_timeout: bool,
) -> None:
    """Run our DPLL beside reference solvers on CNF files, maze CNFs and mazes, and check
    every answer: SAT/UNSAT agreement, every model against the input clauses, UNSAT
    proofs with dratify (--proofs), and every maze answer decoded to a path and validated
    (the layered search gives the reference answer).

    PATH may be a file (.cnf, .cnf.gz/.xz/.bz2, a DP input, a maze .txt) or a folder,
    searched recursively. Exit 0 when everything agrees and validates (timeouts are
    listed but do not fail, unless --fail-on-timeout), 1 when anything disagrees, is
    invalid, crashes or cannot be read, 130 when Ctrl-C or SIGTERM stopped it before
    anything failed.
    """
    if resume and not json_path:
        raise click.UsageError("--resume needs --json FILE (the records to resume from)")
    if resume and json_path == "-":
        raise click.UsageError("--resume needs a --json file, not stdout")
    if maze_path == "-" and "-" in paths:
        raise click.UsageError("--maze - and PATH - cannot both read stdin: name one as a file")
    if maze_path not in (None, "-") and not os.path.isfile(maze_path):
        if os.path.isdir(maze_path):
            fail(f"{maze_path}: is a directory, not a file")
        if not os.path.exists(maze_path):
            fail(f"{maze_path}: no such maze file")
    _need_tools(proofs, plot_path)
    if json_path and plot_path and _one_file(json_path, plot_path):
        raise click.UsageError(f"--json and --plot both name {plot_path}: name two files")
    # the log is no instance of the batch, even in a folder searched (written there as
    # log.cnf, it was refused as an input on the second run: audit 21-C #5)
    files = discover(paths)
    if json_path and not (os.path.isfile(json_path) and _holds_something_else(json_path)):
        files = [f for f in files if f in paths or not _one_file(f, json_path)]
    if not files:
        fail(f"{' '.join(paths)}: no instances found (.cnf, .cnf.gz/.xz/.bz2, .dimacs, maze .txt)")
    inputs = [p for p in paths if not os.path.isdir(p)] + files  # a folder: "is a directory"
    if maze_path is not None:
        inputs.append(maze_path)
    for target in (json_path, plot_path):  # before the batch, not after it
        if target is not None:  # ('' too: refused as an empty name)
            check_output(target, inputs=inputs)
    _refuse_an_instance_as_log(json_path)  # (after: one of the inputs is named so, exit 1)
    # stdin, a pipe or a device is read once, here: every instance (and worker) may need it
    once = maze_path == "-" or (maze_path is not None and not os.path.isfile(maze_path))
    maze_data = read_bytes(maze_path) if once and maze_path is not None else None
    options = BatchOptions(
        CheckOptions(solvers, timeout, proofs, seed), encoding, maze_path, strict, jobs, maze_data
    )
    forget_real_paths()  # (a script's earlier batch may have seen links that moved since)
    log = ResultLog(json_path, resume=resume) if json_path else None
    previous = log.previous if log else []
    todo = pending_paths(files, previous, solvers, seed, timeout) if resume else files
    out_err = json_path == "-"  # stdout carries the records: the summary goes to stderr
    if resume and not quiet:
        known = {record_key(record) for record in previous}
        again = sum(instance_key(path, solvers, seed) in known for path in todo)
        redo = f"; {again} timed out under a shorter --timeout: checked again" if again else ""
        _echo(
            f"resuming: {len(files) - len(todo)} of {len(files)} already recorded{redo}", err=True
        )
    progress = _Progress(len(todo), quiet)
    # the summary is counted as records come, none kept whole but the failures (a batch of
    # millions of files); failures and timeouts are listed in the order of the files
    position = {instance_key(path, solvers, seed): i for i, path in enumerate(files)}
    tally = Tally(solvers, lambda record: position.get(record_key(record), len(files)))
    plotted: list[dict[str, Any]] = []  # what --plot draws of each record
    pending = set(todo)  # (a record that timed out sooner is replaced by the new one)
    done_files = [path for path in files if path not in pending]
    for record in latest_records(previous, done_files, solvers, seed):
        tally.add(record)
        if plot_path:
            plotted.append(plot_point(record))
    done = 0
    started = time.monotonic()
    interrupted = False
    stdin_data = read_stdin_once(todo)
    try:
        for record in check_paths(todo, options, stdin_data=stdin_data):
            if log:
                log.append(record)
            tally.add(record)
            done += 1
            if plot_path:
                plotted.append(plot_point(record))
            if record["verdict"] == "bad-input":
                progress.close()
                _echo(f"error: {record['error']}", err=True)
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
    summary = tally.summary()
    if plot_path:  # first: a closed stdout (`| head`) must not cost the picture
        write_plots(plotted, plot_path, solvers=solvers)
    _echo_lines(summary_lines(summary, elapsed), err=out_err)
    if by_family:
        _echo_lines(["", *family_lines(summary)], err=out_err)
    _echo_lines(failure_lines(summary), err=out_err)
    if plot_path and not quiet:
        _echo(f"plot: {plot_path}", err=True)
    slow = fail_on_timeout and bool(summary.timed_out)
    if slow:
        timed_out = _plural(len(summary.timed_out), "instance")
        _echo(f"{timed_out} timed out: --fail-on-timeout", err=True)
    if interrupted:
        _echo(
            f"interrupted after {done} of {len(todo)} instances"
            + ("; --resume carries on" if json_path and json_path != "-" else ""),
            err=True,
        )
        # (stopped, not failed: a nightly `crosscheck … || alarm` must tell them apart)
        leave(1 if not summary.ok or slow else EXIT_INTERRUPTED)
    leave(0 if summary.ok and not slow else 1)


# ---------------------------------------------------------------------------------- fuzz


@click.command("fuzz", short_help="Cross-check random CNFs and mazes against reference solvers.")
@click.option("--count", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help="Random instances to generate and check.")  # fmt: skip
# (not negative: random.Random(-S) is random.Random(S), so -S would repeat S's formulas)
@click.option("--seed", "fuzz_seed", type=SEED, default=0, show_default=True,
              help="Instance i uses seed SEED+i.")  # fmt: skip
@click.option(
    "--family",
    "families",
    type=click.Choice(ALL_FAMILIES),
    multiple=True,
    help="Instance families to cycle through (repeatable; default: cnfuzz, ksat and maze; "
    "edge only when named).",
)
@click.option(
    "--max-vars",
    type=click.IntRange(min=3),
    default=200,
    show_default=True,
    help="Most variables an instance may have (maze: At/Has atoms; mazes need 6 or more).",
)
@click.option(
    "--out",
    "out_dir",
    default="fuzz-failures",
    show_default=True,
    callback=_out_folder,
    help="Folder for failing and timed-out instances, the failures' shrunk forms and maze "
    "files (checked before the run; created when an instance is saved).",
)
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Instances checked in parallel, each in its own worker process.")  # fmt: skip
@click.option(
    "--json",
    "json_path",
    metavar="FILE",
    callback=_log_path,
    help="Write one JSON record per instance to FILE, replacing it ('-' = stdout).",
)
@click.option(
    "--max-checks",
    type=click.IntRange(min=1),
    default=5000,
    show_default=True,
    help="Most cross-checks spent shrinking one failure.",
)
@functools.partial(_common, seed_flag="--solver-seed")
@_fuzz_fail_on_timeout
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
    fail_on_timeout: bool,
) -> None:
    """Cross-check random instances: cnfuzz-style layered CNFs (`c seed N`), random k-SAT
    near the threshold, random mazes (and with --family edge, cnfuzz's CNFs with edge
    cases: duplicate literals, tautologies, empty clauses, unused variables). Each
    failure is saved in --out, shrunk with a delta debugger, and printed with a one-line
    command that reproduces it. An instance on which a solver timed out is saved there
    too, unshrunk (a timeout fails nothing), unless --fail-on-timeout makes a timeout a
    failure: then it is reported, saved and shrunk as one.

    Exit 0 when every instance agrees and validates, 1 otherwise; 130 when Ctrl-C or
    SIGTERM stopped it before anything failed.
    """
    families = tuple(dict.fromkeys(families or FAMILIES))  # a family named twice counts once
    short = [family for family in families if max_vars < MIN_VARS[family]]
    if short:
        least = max(MIN_VARS[family] for family in short)
        others = [f"--family {family}" for family in FAMILIES if max_vars >= MIN_VARS[family]]
        instead = f", or only {' / '.join(others)}" if others else ""
        raise click.BadParameter(
            f"{max_vars} is too few for {' and '.join(short)} instances, which need at least "
            f"{least}: give {least} or more{instead}",
            param_hint="'--max-vars'",
        )
    _need_tools(proofs)
    _refuse_an_instance_as_log(json_path)
    if json_path is not None:
        check_output(json_path)  # before the run, not after it
    with failure_folder(out_dir):  # the same: a folder that cannot take the failures
        _fuzz(families, count, fuzz_seed, max_vars, out_dir, jobs, json_path, max_checks,
              CheckOptions(solvers, timeout, proofs, seed), quiet, fail_on_timeout)  # fmt: skip


def _fuzz(
    families: tuple[str, ...],
    count: int,
    fuzz_seed: int,
    max_vars: int,
    out_dir: str,
    jobs: int,
    json_path: str | None,
    max_checks: int,
    check: CheckOptions,
    quiet: bool,
    fail_on_timeout: bool = False,
) -> None:
    """The fuzz command's run, once its outputs are known to be writable."""
    options = FuzzOptions(count, fuzz_seed, families, max_vars, jobs, check, fail_on_timeout)
    log = ResultLog(json_path, resume=False) if json_path else None
    progress = _Progress(count, quiet)
    # counted as they come, none kept but the failures (a night of fuzzing is millions)
    tally = Tally(check.solvers)
    per_family: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    timeouts: list[dict[str, Any]] = []  # what saving and its line need, not the whole record
    timed_out = 0  # instances whose worst run timed out (with --fail-on-timeout: failures)
    started = time.monotonic()
    interrupted = False
    try:
        for record in run_fuzz(options):
            if log:
                log.append(record)
            tally.add(record)
            per_family[record["family"]] += 1
            failed = is_failure(record, fail_on_timeout)
            timed_out += record["verdict"] == "timeout"
            if failed:
                failures.append(record)
            elif record["verdict"] == "timeout":
                slow = [name for name, run in record["runs"].items() if run["outcome"] == "timeout"]
                timeouts.append(
                    {key: record[key] for key in ("family", "seed", "instance")}
                    | {"why": ", ".join(slow) or record.get("error", "")}
                )
            progress.advance(failed)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        progress.close()
        if log:
            log.close()
    elapsed = time.monotonic() - started
    out_err = json_path == "-"
    shown = ", ".join(f"{family} {per_family[family]}" for family in options.families)
    summary = tally.summary()
    failures.sort(key=lambda r: r["seed"])
    timeouts.sort(key=lambda r: r["seed"])
    _echo(
        f"fuzz: {tally.instances} instances ({shown}) from seed {fuzz_seed}; "
        f"{len(failures)} failures; {elapsed:.1f} s",
        err=out_err,
    )
    _echo_lines(summary_lines(summary), err=out_err)
    # a timeout fails nothing, but the formula behind a hang is worth having: the first
    # are saved (unshrunk: shrinking keeps failures only) and their lines say where; a
    # night of fuzzing with a short --timeout must not write a file per instance
    for record in timeouts[:_SAVED_TIMEOUTS]:
        saved = save_timeout(record, options, out_dir)
        _echo(
            f"timeout: {record['instance']} ({record['why']}); saved: {' '.join(saved.files)}",
            err=out_err,
        )
    if len(timeouts) > _SAVED_TIMEOUTS:
        more = len(timeouts) - _SAVED_TIMEOUTS
        _echo(
            f"… and {more} more timeouts, not saved (seeds "
            f"{', '.join(str(r['seed']) for r in timeouts[_SAVED_TIMEOUTS:][:20])}"
            f"{', …' if more > 20 else ''}: --seed S --count 1 makes one again)",
            err=out_err,
        )
    _echo_lines(notice_lines(dataclasses.replace(summary, timed_out=[])), err=out_err)
    # every failure is on disk before the first shrink: a SIGKILL (CI's hard stop, the OOM
    # killer) during shrinking left the later ones in the JSON records only (audit 21-C)
    for record in failures:
        save_failure(record, options, out_dir, shrink=False)
    shrinking = True
    passed = ("agree",) if fail_on_timeout else ("agree", "timeout")
    for number, record in enumerate(failures, start=1):
        what = ", ".join(
            f"{name} {run['outcome']}"
            for name, run in record["runs"].items()
            if run["outcome"] not in passed
        ) or record.get("error", record["verdict"])
        label = f"{record['family']} seed {record['seed']}"
        _echo(f"FAIL {label}: {what}", err=out_err)
        shrink_bar = _Progress(0, quiet)
        tell = _shrink_progress(shrink_bar, f"{label} ({number} of {len(failures)})")
        try:
            saved = save_failure(
                record, options, out_dir, max_checks=max_checks, shrink=shrinking, progress=tell
            )
        except KeyboardInterrupt:  # stop shrinking, but save and report every failure
            shrink_bar.close()
            shrinking = False
            _echo("interrupted: shrinking stopped; the failures are saved unshrunk", err=True)
            saved = save_failure(record, options, out_dir, shrink=False)
        finally:
            shrink_bar.close()
        if saved.shrunk is not None and saved.shrunk.was_interrupted():
            shrinking = False
            _echo(
                "interrupted: shrinking stopped (this failure is saved shrunk as far as it got; "
                "the ones after it unshrunk)",
                err=True,
            )
        if saved.shrunk is not None:
            _echo(
                f"  shrunk {saved.shrunk.original_clauses} -> {len(saved.shrunk.clauses)} "
                f"clauses over {saved.shrunk.nvars} variables "
                f"({_plural(saved.shrunk.checks, 'check')}{saved.shrunk.stopped_early()})"
                f"{saved.shrunk.flaky()}",
                err=out_err,
            )
        if saved.did_not_fail_again:
            _echo(
                "  did not fail again when re-checked (a flaky solver?): saved unshrunk",
                err=out_err,
            )
        _echo(f"  saved: {' '.join(saved.files)}", err=out_err)
        # (an unshrunk save after Ctrl-C said "reproduce:" over the command that regenerates
        # it, as its file says: audit 21-C #7)
        how = "regenerate" if saved.regenerates else "reproduce"
        _echo(f"  {how}: {saved.reproduce}", err=out_err)
    slow = fail_on_timeout and bool(timed_out)
    if slow:
        _echo(f"{_plural(timed_out, 'instance')} timed out: --fail-on-timeout", err=True)
    if interrupted:
        _echo(f"interrupted after {tally.instances} of {count} instances", err=True)
        leave(1 if failures or slow else EXIT_INTERRUPTED)
    leave(1 if failures or slow else 0)


# -------------------------------------------------------------------------------- shrink


def _why_no_failure(
    instance: Instance, check: CheckOptions, plain: dict[str, Any], timeouts: bool = False
) -> str:
    """Why the plain CNF shows no failure: its check's record ``plain`` tells, and for a maze
    one full check (the maze's search and path check too) more. ``timeouts``: a timeout is a
    failure (``--fail-on-timeout``)."""
    record = plain if instance.maze is None else check_instance(instance, check)
    failed = sorted(name for name, _outcome in failure_signature(record, timeouts))
    if failed:
        verb = "fails" if len(failed) == 1 else "fail"
        return (
            f"{', '.join(failed)} {verb} only against the maze (its search or the path check), "
            "which a CNF cut down clause by clause cannot keep"
        )
    runs = record.get("runs", {})
    timed_out = sorted(name for name, run in runs.items() if run["outcome"] == "timeout")
    if timed_out:
        return (
            f"{', '.join(timed_out)} timed out (a timeout is not a failure: --fail-on-timeout "
            "shrinks it as one; a longer --timeout may let it answer)"
        )
    return "every solver agrees and validates"


def _default_output(path: str) -> str:
    if path == "-":
        return "-"
    folder, base = os.path.split(path)
    for suffix in (".gz", ".xz", ".bz2"):
        base = base.removesuffix(suffix)
    stem = base.rsplit(".", 1)[0] if "." in base else base
    return os.path.join(folder, stem + ".min.cnf")


@click.command("shrink", short_help="Cut a CNF down to a small one that still fails a check.")
@click.argument("path", metavar="FILE")
@_common
@click.option("-o", "--output", help="Where the shrunk CNF goes (default: FILE's stem + .min.cnf).")
@encoding_option("How a maze file is encoded before shrinking its CNF.")
@click.option("--max-checks", type=click.IntRange(min=1), default=5000, show_default=True,
              help="Most cross-checks to spend.")  # fmt: skip
@_shrink_fail_on_timeout
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
    fail_on_timeout: bool,
) -> None:
    """Cut a failing CNF down (cnfdd-style: clauses by halving, then literals, then variables
    renumbered) while the same solvers still fail on it the same way; write the minimal CNF
    with the one-line command that reproduces the failure. A timeout (or an UNKNOWN answer)
    is no failure, unless --fail-on-timeout makes it one: then a hang is shrunk too.

    Exit 0 when a failure was shrunk, 1 when FILE shows no failure or cannot be read.
    Ctrl-C (or --max-checks running out) writes the smallest failing CNF found so far,
    marked in its comment (", interrupted" or ", stopped by --max-checks"); Ctrl-C in the two
    re-checks after the shrinking writes it as shrunk, with "; re-checks interrupted after
    N of 2".
    """
    _need_tools(proofs)
    target = output if output is not None else _default_output(path)
    check_output(target, inputs=[path])  # before the shrinking
    instance = load_instance(path, encoding=encoding, solvers=solvers)
    check = CheckOptions(solvers, timeout, proofs, seed)
    progress = _Progress(0, quiet)
    first: list[dict[str, Any]] = []
    try:
        result = shrink_instance(
            instance,
            check,
            max_checks=max_checks,
            progress=_shrink_progress(progress, instance.name),
            first_record=first,
            timeouts=fail_on_timeout,
        )
    except KeyboardInterrupt:  # in the first check: nothing is known to fail yet
        progress.close()
        _echo("interrupted: nothing shrunk, nothing written", err=True)
        sys.exit(EXIT_INTERRUPTED)
    finally:
        progress.close()
    if result is None:
        why = _why_no_failure(instance, check, first[0], fail_on_timeout)
        fail(f"{instance.name}: no failure to shrink: {why}")
        return
    reproduce = check_command(target, check, fail_on_timeout=fail_on_timeout)
    described = ", ".join(f"{solver} {outcome}" for solver, outcome in sorted(result.failures))
    minimal = Formula(
        nvars=result.nvars,
        clauses=result.clauses,
        comments=[
            printable(f"reproduce: {reproduce}"),
            printable(
                f"shrunk from {instance.name}: {result.original_clauses} -> "
                f"{len(result.clauses)} clauses in {_plural(result.checks, 'check')} ({described})"
                f"{result.stopped_early()}{result.flaky()}"
            ),
        ],
    )
    write_dimacs(minimal, target, inputs=[path])
    err = target == "-"
    if result.interrupted:
        _echo("interrupted: the smallest failing CNF so far is written", err=True)
    elif result.rechecks_cut:  # the shrinking had finished
        _echo("interrupted in the re-checks: the shrunk CNF is written", err=True)
    _echo(
        f"shrunk {instance.name}: {result.original_clauses} -> {len(result.clauses)} clauses "
        f"over {result.nvars} variables in {_plural(result.checks, 'check')} ({described})"
        + (", interrupted" if result.interrupted else "")
        + (f"; --max-checks {max_checks} ran out, so it may shrink further with more"
           if result.out_of_checks else "")
        + result.flaky(),
        err=err,
    )
    if not err:
        _echo(f"saved: {target}")
    _echo(f"reproduce: {reproduce}", err=err)


commands: list[click.Command] = [crosscheck_command, fuzz_command, shrink_command]
