"""The process's console: exit codes, how a command ends, and standard streams that a
closed pipe or a full disk cannot turn into a traceback.

Kept apart from `formats.cli` and `formats.streams` so that the entry point
(`satkit.run`), which needs it for every command, ``--help`` and ``--version`` included,
imports nothing heavy (the readers and their gzip/bz2/lzma modules).
"""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import Any, NoReturn

import click

STDOUT_CLOSED = [False]
"""Whether the process started with its standard output closed (``>&-``; satkit's entry
point then points ``sys.stdout`` at the null device, so that a solver's answer is still
its exit code, as minisat's is): an output written to ``-`` is then an error, not a
silent success (audit 22-B #3; `formats.streams.atomic_output`)."""


def refuse_closed_stdout() -> None:
    """OSError (``error: <stdout>: closed …``, exit 1) when `STDOUT_CLOSED`: for commands
    whose output is their product, which would go nowhere."""
    if STDOUT_CLOSED[0]:
        raise OSError(errno.EBADF, "closed (started with >&-): nothing written", "<stdout>")


def leave(code: int) -> NoReturn:
    """End a command that has given its answer with exit ``code``, click's way: from the
    console the process exits with it, and ``main([...], standalone_mode=False)`` returns
    it to a calling script instead of raising SystemExit."""
    raise click.exceptions.Exit(code)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print one ``error: …`` line on stderr and exit with ``code``: click's way inside a
    command (`leave`: ``main([...], standalone_mode=False)`` returns the code), else
    SystemExit."""
    click.echo(f"error: {message}", err=True)
    if click.get_current_context(silent=True) is not None:
        raise click.exceptions.Exit(code)
    sys.exit(code)


QUICK_EXIT = [False]
"""Set by the console entry point (`satkit.run`): `answered` may end the process at once."""


WRITTEN: list[str] = []
"""The output files this command has renamed into place (`formats.streams.atomic_output`),
as the user named them: a stop that comes after one was written must not say that nothing
was (audit 28-C #2). Emptied when a command starts (`formats.cli.report_errors`)."""


def interrupted_unanswered() -> NoReturn:
    """End a command that Ctrl-C or SIGTERM stopped and that has no answer to give when
    stopped: output files are atomic, so each is whole or was not written (`WRITTEN` says
    which were); exit 130, the shell's code for Ctrl-C, not 1 (bad input)."""
    if WRITTEN:
        were = "was" if len(WRITTEN) == 1 else "were"
        click.echo(f"interrupted after {', '.join(WRITTEN)} {were} written whole", err=True)
    else:
        click.echo("interrupted: nothing written", err=True)
    sys.exit(EXIT_INTERRUPTED)


def answered(code: int) -> None:
    """End a command whose answer is out (printed, files renamed into place) with ``code``.

    From the console (`QUICK_EXIT`), the process ends at once: a solver of gigabytes
    of small objects is not freed one object at a time first (seconds on a big input),
    and a Ctrl-C meanwhile ends it instead of printing a shutdown traceback. Elsewhere
    (tests, a caller of ``main``) it is `leave`.
    """
    if QUICK_EXIT[0]:
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:  # (None: the process was started with it closed)
                    stream.flush()
        except BrokenPipeError:
            _silence_stdout()
            os._exit(EXIT_BROKEN_PIPE)
        except OSError as exc:  # the answer could not be written out: one error line
            where = "<stdout>" if exc.filename is None else exc.filename
            _silence_stdout()
            click.echo(f"error: {where}: {exc.strerror or exc}", err=True)
            os._exit(1)
        os._exit(code)
    leave(code)


EXIT_INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C or SIGTERM before it had anything to give."""

EXIT_BROKEN_PIPE = 141
"""The exit code of a command whose reader closed standard output early (``| head``):
the shell's code for a process ended by SIGPIPE, what minisat or cadical give there."""


def finish_stdout() -> None:
    """Flush standard output before the interpreter does: when the reader has gone
    (``| head``), end quietly with `EXIT_BROKEN_PIPE`, instead of Python's 'Exception
    ignored … BrokenPipeError' on stderr and exit 120 from the flush at exit."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(EXIT_BROKEN_PIPE)
    except (OSError, ValueError):
        pass  # a full disk and the like were reported where the write failed


def fail_unwritten(exc: OSError) -> NoReturn:
    """End with one ``error: FILE: reason`` line (exit 1) for output that could not be
    written outside a command body (click's help or version text on a full disk);
    a file-less error is standard output's."""
    where = "<stdout>" if exc.filename is None else exc.filename
    if where == "<stdout>":
        _silence_stdout()
    fail(f"{where}: {exc.strerror or exc}")


def _silence_stdout() -> None:
    """After a write to standard output failed (a full disk): point it at /dev/null, so
    that the flush at exit does not fail again (Python's 'Exception ignored' and exit
    120 after our one error line). Nothing to do where stdout is no file (tests)."""
    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, AttributeError):
        return
    os.dup2(null, fd)
    os.close(null)


class _WriteFailuresIgnored(io.RawIOBase):
    """A file descriptor whose write failures are dropped: after the first, nothing more
    is written (see `forgive_stderr`)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data: Any) -> int:
        if not self.failed:
            try:
                return os.write(self.fd, data)
            except OSError:  # a full disk, a reader gone, an I/O error
                self.failed = True
        return len(data)


def forgive_stderr() -> None:
    """Make standard error drop what it cannot write (``2>/dev/full``, ``2>>log`` on a
    full disk, a closed terminal) instead of raising: a warning that cannot be shown
    must not cost the answer, as it does not in minisat. Only for the console: the
    process's own stderr is replaced."""
    stream = sys.stderr
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a file (a test's capture): leave it alone
    sys.stderr = io.TextIOWrapper(
        io.BufferedWriter(_WriteFailuresIgnored(fd)),
        encoding=getattr(stream, "encoding", None) or "utf-8",
        errors=getattr(stream, "errors", None) or "backslashreplace",
        line_buffering=True,
        write_through=True,
    )
