"""The one error type every reader raises: what is wrong, in which file, on which line."""

from __future__ import annotations

import errno
import re
import sys


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``1 house``, ``2 houses``, ``0 guards``: a number and its noun in the right number
    (``plural`` when it is not the noun and an s: ``count(2, "category", "categories")``)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def quoted(text: str, limit: int = 60) -> str:
    """What a message shows of a piece of input: ``repr(text)``, cut after ``limit``
    characters (a whole formula on one line must not become one line of error).

    >>> quoted("p cnf 2")
    "'p cnf 2'"
    >>> quoted("x" * 100, 5)
    "'xxxxx…'"
    """
    return repr(text if len(text) <= limit else text[:limit] + "…")


class FormatError(ValueError):
    """Bad input: carries the file name, the 1-based line number and a message.

    ``str(err)`` is ``FILE:LINE: message`` (``FILE: message`` when no line applies),
    which is exactly what the command line prints after ``error: ``.
    """

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        super().__init__(self.location() + ": " + message)

    def location(self) -> str:
        """``FILE:LINE`` (or just ``FILE`` when the error is not tied to a line)."""
        return f"{self.file}:{self.line}" if self.line is not None else self.file


class FormatWarning:
    """A tolerated irregularity (lenient mode): same shape as :class:`FormatError`."""

    __slots__ = ("file", "line", "message")

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.message}"

    def __repr__(self) -> str:
        return f"FormatWarning({self.file!r}, {self.line!r}, {self.message!r})"


class EnvironmentFailure(Exception):
    """The machine failed, not the input or a solver: a full disk, no file descriptors or
    no memory left. A command prints ``error: MESSAGE`` and exits 1; a batch stops
    rather than blame a solver for it."""


MACHINE_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.EAGAIN}
)
"""Errors of the machine, not of a program or a file: a full disk or quota, no file
descriptors, no memory or processes left."""


def machine_failure(exc: OSError, doing: str) -> BaseException:
    """What ``exc``, raised while ``doing`` something, is: an `EnvironmentFailure` when it
    is the machine's (`MACHINE_ERRNOS`: ``cannot DOING: reason``), else ``exc`` itself.

    >>> str(machine_failure(OSError(24, "Too many open files"), "start cadical"))
    'cannot start cadical: Too many open files'
    """
    if exc.errno in MACHINE_ERRNOS:
        return EnvironmentFailure(f"cannot {doing}: {exc.strerror or exc}")
    return exc


_QUOTED_OR_COMMENT = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
)
"""A string (JSON's, TOML's four kinds) or a TOML comment: digits there are no number."""

_INTEGER = re.compile(r"(?<![0-9_.eExob])(?<![eE][+-])[0-9][0-9_]*(?![0-9_.eE]|\s*=)")
"""An integer as JSON or TOML writes it (TOML may put ``_`` between digits); not part of a
float or of a key, nor a TOML ``0x``/``0o``/``0b`` one (``int`` reads those whole)."""

_DIGITS_REFUSED = re.compile(r"value has (\d+) digits")


def number_too_long(
    exc: ValueError, text: str, name: str, what: str, line: int | None = None
) -> FormatError | None:
    """The error for ``exc`` when it is ``int``'s refusal of a number of more digits than
    Python reads (4,300 by default: ``sys.set_int_max_str_digits``), raised while ``text``
    was parsed as JSON or TOML: ``WHAT: a number of N digits …`` at the line of the first
    such integer outside strings and comments (``line`` when ``text`` is that one line);
    None when ``exc`` is something else, to be raised as it is."""
    if "integer string conversion" not in str(exc):
        return None
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    refused = _DIGITS_REFUSED.search(str(exc))  # (CPython says how many: the one to find)
    blanked = _QUOTED_OR_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    for found in _INTEGER.finditer(blanked):
        digits = len(found.group()) - found.group().count("_")
        if digits > limit and (refused is None or digits == int(refused.group(1))):
            at = line if line is not None else blanked.count("\n", 0, found.start()) + 1
            return FormatError(
                name, at, f"{what}: a number of {digits:,} digits (at most {limit:,} are read)"
            )
    return FormatError(name, line, f"{what}: a number of more than {limit:,} digits")
