"""Commands that drive `formats` (convert, stats) and the error plumbing every cli.py shares."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

from formats.errors import FormatError, FormatWarning

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 1) -> None:
    """Print one ``error: …`` line on stderr and exit with ``code``."""
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def report_errors(func: F) -> F:
    """Turn bad input into one ``error: FILE:LINE: message`` line and exit 1.

    Wrap every command body with it: a FormatError (or an unreadable/unwritable
    path) never reaches the user as a traceback.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except FormatError as exc:
            fail(str(exc))
        except BrokenPipeError:
            sys.exit(1)
        except OSError as exc:
            where = getattr(exc, "filename", None) or "<output>"
            fail(f"{where}: {exc.strerror or exc}")
        return None

    return wrapper  # type: ignore[return-value]


def print_warnings(warnings: Iterable[FormatWarning], quiet: bool = False) -> None:
    """Print ``warning: FILE:LINE: message`` lines on stderr (unless quiet)."""
    if quiet:
        return
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)


commands: list[click.Command] = []
