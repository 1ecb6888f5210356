"""Commands that drive `formats` (convert, stats) and the error plumbing every cli.py shares."""

from __future__ import annotations

import errno
import functools
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

from formats.assignment import EmptyClauseError, write_dp_input

# (the `as` names are re-exported: the commands import their whole toolkit from formats.cli)
from formats.console import EXIT_BROKEN_PIPE as EXIT_BROKEN_PIPE
from formats.console import EXIT_INTERRUPTED as EXIT_INTERRUPTED
from formats.console import QUICK_EXIT as QUICK_EXIT
from formats.console import (
    WRITTEN,
    _silence_stdout,
    fail,
    interrupted_unanswered,
    refuse_closed_stdout,
)
from formats.console import answered as answered
from formats.console import fail_unwritten as fail_unwritten
from formats.console import finish_stdout as finish_stdout
from formats.console import leave as leave
from formats.detect import FORMATS, read_formula, strict_format
from formats.dimacs import clause_line, write_dimacs
from formats.drawing import DRAWING as DRAWING
from formats.errors import EnvironmentFailure, FormatError, FormatWarning
from formats.formula import Formula
from formats.memory import byte_size as byte_size
from formats.memory import shortage
from formats.signals import STOP_SIGNALS as STOP_SIGNALS
from formats.signals import signal_raises as signal_raises
from formats.signals import terminate_as_interrupt as terminate_as_interrupt
from formats.statistics import formula_stats
from formats.streams import check_output, display_name, named_dimacs

F = TypeVar("F", bound=Callable[..., Any])


MAX_SECONDS = 1_000_000.0
"""The longest time limit a command accepts (11.6 days): beyond about 25 days the
operating system's timers (``poll``, ``select``) overflow."""


class Seconds(click.ParamType):
    """A time limit in seconds: a finite number above 0 and at most `MAX_SECONDS`."""

    name = "seconds"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        """The number, or a usage error (exit 2) naming what is wrong."""
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not 0.0 < seconds <= MAX_SECONDS:  # also refuses nan
            self.fail(
                f"{value!r} is not a time limit: give seconds above 0 and at most "
                f"{MAX_SECONDS:,.0f}",
                param,
                ctx,
            )
        return seconds


PATH = click.Path(readable=False)
"""A path argument whose checks are the command's own: click would refuse an unreadable file
as a usage error (exit 2), where bad input is one ``error: FILE: …`` line and exit 1."""

PATH_OR_DASH = click.Path(readable=False, allow_dash=True)
"""`PATH`, or ``-`` for standard input or output."""


class StatusLine:
    """One line of status on a terminal, rewritten in place: cut to the terminal's width
    (a wrapped line cannot be rewritten by a carriage return) and, where the terminal is
    dumb (``TERM=dumb``: an Emacs shell, say), cleared with blanks instead of ``ESC [K``."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.plain = os.environ.get("TERM", "") in ("", "dumb")
        self.length = 0  # of the text on the line now

    def _columns(self) -> int | None:
        try:
            return os.get_terminal_size(self.stream.fileno()).columns or None
        except (AttributeError, OSError, ValueError):
            return None  # not a terminal we can ask: nothing is cut

    def show(self, text: str) -> None:
        """Put ``text`` in place of what the line shows."""
        columns = self._columns()
        if columns is not None:
            text = text[: max(1, columns - 1)]
        if self.plain:
            out = "\r" + text + " " * max(0, self.length - len(text))
        else:
            out = "\r" + text + "\033[K"
        self.length = len(text)
        self.stream.write(out)
        self.stream.flush()

    def clear(self) -> None:
        """Empty the line, leaving the cursor at its start."""
        if self.plain:
            self.stream.write("\r" + " " * self.length + "\r")
        else:
            self.stream.write("\r\033[K")
        self.length = 0
        self.stream.flush()


def is_terminal(stream: Any) -> bool:
    """Whether progress may be drawn on ``stream`` (a terminal)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


class Ticker:
    """Progress for long work: a `StatusLine` on stderr, rewritten every ``delay`` seconds
    by a timer thread while the work runs (a context manager; the line is cleared at the
    end). ``describe(elapsed_seconds)`` gives its text: it runs in that thread, so it only
    reads what the work updates (a solver's counters, say), never the work's loop itself.
    Other lines for the same terminal go through `say`, which clears the line first."""

    def __init__(self, describe: Callable[[float], str], delay: float = 1.0) -> None:
        self.describe = describe
        self.delay = delay
        self.start = time.monotonic()
        self.stop = threading.Event()
        self.lock = DRAWING  # one writer at a time (the ticker or `say`), none across a fork
        self.shown = False
        self.line = StatusLine(sys.stderr)
        self.thread = threading.Thread(target=self._run, name="satkit-progress", daemon=True)

    def _run(self) -> None:
        while not self.stop.wait(self.delay):
            text = self.describe(time.monotonic() - self.start)
            with self.lock:
                self.line.show(text)
                self.shown = True

    def say(self, text: str) -> None:
        """Print ``text`` as a line of its own on stderr (the ticker redraws below it)."""
        with self.lock:
            if self.shown:
                self.line.clear()
                self.shown = False
            click.echo(text, err=True)

    def __enter__(self) -> Ticker:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        if self.shown:
            self.line.clear()


PROGRESS_DELAY = 1.0
"""Seconds before the first progress line of `at_terminal`, and between its updates."""


def at_terminal(describe: Callable[[float], str], quiet: bool = False) -> Ticker | None:
    """A `Ticker` (every `PROGRESS_DELAY` seconds) when stderr is a terminal and ``quiet`` is
    off, else None: no progress."""
    return None if quiet or not is_terminal(sys.stderr) else Ticker(describe, PROGRESS_DELAY)


_WRITE_ERRORS = {errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT}
"""What writing to a file can raise with no file name attached (a full disk, say)."""


def report_errors(func: F) -> F:
    """Turn bad input into one ``error: FILE:LINE: message`` line and exit 1.

    Wrap every command body with it: a FormatError (or an unreadable/unwritable
    path) never reaches the user as a traceback. SIGTERM is handled like Ctrl-C
    while the command runs (see `terminate_as_interrupt`).
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        WRITTEN.clear()  # (a caller of ``main`` may run several commands in one process)
        try:
            with terminate_as_interrupt():
                return func(*args, **kwargs)
        except (FormatError, EnvironmentFailure) as exc:
            fail(str(exc))
        except BrokenPipeError:  # the reader has gone (`| head`): nothing to say to anyone
            _silence_stdout()
            sys.exit(EXIT_BROKEN_PIPE)
        except OSError as exc:
            where = exc.filename
            if where is None and exc.errno in _WRITE_ERRORS:
                where = "<stdout>"  # (atomic outputs name their file: what is left is print())
            what = exc.strerror or str(exc)
            if where == "<stdout>":
                _silence_stdout()
            fail(what if where is None else f"{where}: {what}")
        except MemoryError as exc:  # past the size checks: a process memory limit, say
            detail = f": {exc}" if str(exc) else ""
            # the traceback holds the frames that hold the solver: let it go before the
            # message is printed, or printing it fails for want of memory in turn (a
            # chained traceback of MemoryErrors)
            traceback.clear_frames(exc.__traceback__)  # (Python 3.10 keeps the traceback
            exc.__traceback__ = None  # of the exception being handled elsewhere too)
            exc.__context__ = None
            del exc
            fail(f"out of memory{detail} (this process may not use more; try a smaller input)")
        except KeyboardInterrupt:
            # (solve, puzzle, crosscheck handle it themselves: they have an answer to give)
            interrupted_unanswered()
        return None

    return wrapper  # type: ignore[return-value]


def fail_if_short(
    lead: str, need: int, have: int | None, resource: str | None = None, hint: str = ""
) -> None:
    """Fail (one ``error:`` line, exit 1) when ``need`` bytes surely exceed the ``have``
    available (None: unknown, never refused): ``LEAD need at least X GB[ of RESOURCE];
    Y MB are available[ HINT]``, each size in the unit that shows it."""
    why = shortage(lead, need, have, resource, hint)
    if why is not None:
        fail(why)


def one_stdin(**inputs: str | None) -> None:
    """A usage error when more than one input is ``-``: stdin can be read only once.

    Keyword names are the inputs as the user knows them (``one_stdin(MAZE=a, **{"--path": b})``).
    """
    dashes = [name for name, value in inputs.items() if value == "-"]
    if len(dashes) > 1:
        raise click.UsageError(
            f"{' and '.join(dashes)} cannot both be '-': standard input can be read only once"
        )


def print_warnings(warnings: Iterable[FormatWarning], quiet: bool = False) -> None:
    """Print ``warning: FILE:LINE: message`` lines on stderr (unless quiet)."""
    if quiet:
        return
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)


SEED = click.IntRange(min=0)
"""Every ``--seed``: 0 or more. ``random.Random`` takes a negative seed's absolute value, so
-S would silently repeat S's run."""

STRICT_HELP = (
    "Irregular DIMACS is an error, not a warning: a missing or mismatched header, a "
    "missing final 0, literals above the declared count, a comment that is not UTF-8."
)
"""The help of every ``--strict`` that reads DIMACS (README: "DIMACS in, DIMACS out")."""

strict_option = click.option("--strict", is_flag=True, help=STRICT_HELP)
quiet_option = click.option("--quiet", "-q", is_flag=True, help="Do not print warnings.")
from_option = click.option(
    "--from",
    "source",
    type=click.Choice(["auto", *FORMATS]),
    default="auto",
    show_default=True,
    help="Input format (auto: detected from the first line).",
)


def cnf_output_format(output: str, target: str | None, default: str) -> str:
    """The format to write to ``output``: ``target`` when given, else the one a ``.cnf``
    or ``.dimacs`` name says (DIMACS), else ``default``. Every reader takes such a name
    for DIMACS, so the DP format under it would be misread (its clauses end at line ends,
    not at 0): asking for that is a usage error (audit 23-C #1)."""
    dimacs_name = output != "-" and named_dimacs(output)
    if target is None:
        return "dimacs" if dimacs_name else default
    if target == "assignment" and dimacs_name:
        raise click.UsageError(
            f"{output} is named as a DIMACS file, which every reader (satkit's, minisat's) "
            "takes it for: give the DP format another name (.txt, .dp), or leave out "
            "--to assignment"
        )
    return target


@click.command(short_help="Convert between DIMACS CNF and the assignment's DP input.")
@click.argument("input_path", metavar="IN")
@click.option("-o", "--output", default="-", show_default=True, help="Output file ('-' = stdout).")
@click.option(
    "--to",
    "target",
    type=click.Choice(FORMATS),
    default=None,
    help="Output format (default: DIMACS for a .cnf or .dimacs OUT, else the other one).",
)
@from_option
@strict_option
@quiet_option
@report_errors
def convert(
    input_path: str, output: str, target: str | None, source: str, strict: bool, quiet: bool
) -> None:
    """Convert between DIMACS CNF and the assignment's DP input format.

    The DP format's back matter rides through DIMACS as `c back-matter "…"`
    comment lines (one JSON string per line), so DP -> DIMACS -> DP gives back
    the same clauses and the same back matter byte for byte. DIMACS 'c var N NAME'
    names become the DP key (back matter lines 'N NAME'); what the DP format cannot
    hold (other comments, declared variables in no clause) is named in a warning
    as it is left out. A formula with an empty
    clause cannot be written in the DP format (error, exit 1, naming the clause's
    line when the input is a file).
    """
    check_output(output, inputs=[input_path])
    cnf_output_format(output, target, "dimacs")  # (a usage error before the input is read)
    fmt = strict_format(None if source == "auto" else source, strict)
    formula, kind = read_formula(input_path, fmt=fmt, strict=strict)
    print_warnings(formula.warnings, quiet)
    target = cnf_output_format(output, target, "assignment" if kind == "dimacs" else "dimacs")
    if target == "dimacs":
        write_dimacs(formula, output, inputs=[input_path], literals_checked=True)
        return
    if kind == "dimacs":
        print_warnings(_for_the_dp_format(formula, display_name(input_path)), quiet)
    try:
        write_dp_input(
            formula, output, inputs=[input_path], source=display_name(input_path),
            literals_checked=True,  # (read by our own readers just above)
        )  # fmt: skip
    except EmptyClauseError as exc:
        # the formula keeps no clause lines: read a DIMACS file again to find this one
        line = clause_line(input_path, exc.clause) if kind == "dimacs" else None
        if line is None:
            raise
        raise FormatError(exc.file, line, exc.message) from None


def _for_the_dp_format(formula: Formula, name: str) -> list[FormatWarning]:
    """Fit a DIMACS formula's extras to the DP format, which has no header and no names.

    ``c var N NAME`` names become the key in the back matter (``N NAME`` lines, as the
    assignment's front end writes them and ``maze decode`` reads them) when there is no
    back matter already; otherwise, and for declared variables no clause uses, the
    returned warnings say what is lost.
    """
    warnings = []
    if formula.names and not formula.back_matter:
        formula.back_matter = "".join(f"{v} {formula.names[v]}\n" for v in sorted(formula.names))
    elif formula.names:
        warnings.append(FormatWarning(
            name, None, "the 'c var' names are not written: the DP back matter is already "
            "taken by the 'c back-matter' lines"))  # fmt: skip
    if formula.comments:  # (the 'c var' and 'c back-matter' lines are carried, not these)
        count = len(formula.comments)
        lines = "its comment line is" if count == 1 else f"its {count:,} comment lines are"
        warnings.append(FormatWarning(
            name, None, f"the DP format has no comments: {lines} not written"))  # fmt: skip
    used = max((abs(lit) for clause in formula.clauses for lit in clause), default=0)
    if formula.nvars > used:
        unused = (
            f"variable {used + 1} is" if formula.nvars == used + 1
            else f"variables {used + 1}..{formula.nvars} are"
        )  # fmt: skip
        warnings.append(FormatWarning(
            name, None, f"the DP format has no header: {unused} declared but in no clause, "
            "and not written"))  # fmt: skip
    return warnings


@click.command(short_help="Describe a CNF: sizes, lengths, pure literals, duplicates.")
@click.argument("input_path", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@from_option
@strict_option
@quiet_option
@report_errors
def stats(input_path: str, as_json: bool, source: str, strict: bool, quiet: bool) -> None:
    """Describe a CNF file: sizes, clause lengths, pure literals, duplicates, tautologies."""
    fmt = strict_format(None if source == "auto" else source, strict)
    formula, kind = read_formula(input_path, fmt=fmt, strict=strict)
    print_warnings(formula.warnings, quiet)
    refuse_closed_stdout()  # (its output is its product, as dp's: review 22 #4)
    result = formula_stats(formula)
    if as_json:
        click.echo(json.dumps({"file": input_path, "format": kind, **result.as_dict()}, indent=2))
        return
    histogram = ", ".join(f"{k}: {v}" for k, v in result.length_histogram.items()) or "none"
    rows = [
        ("file", input_path),
        ("format", kind),
        ("variables", f"{result.variables} ({result.variables_used} used)"),
        ("clauses", result.clauses),
        ("literals", result.literals),
        ("clause lengths", histogram),
        ("empty clauses", result.empty_clauses),
        ("unit clauses", result.unit_clauses),
        ("binary clauses", result.binary_clauses),
        ("pure literals", result.pure_literals),
        ("duplicate clauses", result.duplicate_clauses),
        ("tautologies", result.tautologies),
    ]
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        click.echo(f"{label + ':':{width + 1}} {value}")


commands: list[click.Command] = [convert, stats]
