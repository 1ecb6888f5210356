"""Signals that ask a command to stop, and turning them into exceptions while a block runs.

Library code (``crosscheck``'s program runner and worker pool) needs these as much as the
commands do, so they live here rather than in a ``cli.py``.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def signal_raises(number: int, exception: type[BaseException]) -> Iterator[bool]:
    """While the block runs, signal ``number`` raises ``exception``; the handler before
    is put back after. Yields False, and changes nothing, outside the main thread
    (where Python cannot set handlers) or when the signal is ignored (``nohup`` ignores
    SIGHUP for the command it starts: the command must run on)."""

    def handler(_signum: int, _frame: Any) -> None:
        raise exception

    try:
        ignored = signal.getsignal(number) == signal.SIG_IGN
        previous = None if ignored else signal.signal(number, handler)
    except ValueError:  # not the main thread
        ignored = True
    if ignored:  # (outside the try: an error of the block must pass through, not land here)
        yield False
        return
    try:
        yield True
    finally:
        signal.signal(number, previous)


STOP_SIGNALS: tuple[int, ...] = tuple(
    getattr(signal, name)
    for name in ("SIGTERM", "SIGHUP", "SIGXCPU")
    if hasattr(signal, name)
)
"""Signals that ask a command to stop, handled like Ctrl-C: SIGTERM (``kill``,
``timeout``, schedulers), SIGHUP (the terminal closed, an ssh connection dropped) and
SIGXCPU (a soft CPU-time limit ran out: ``ulimit -t``, a harness's RLIMIT_CPU; the
kernel kills at the hard limit, so a stop must be quick)."""


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Treat SIGTERM, SIGHUP and SIGXCPU (`STOP_SIGNALS`) like Ctrl-C (KeyboardInterrupt) while
    the block runs.

    ``timeout``, ``kill`` and batch schedulers send SIGTERM; Python's default
    for it is to die at once, which skips every ``finally``: an atomic output
    would leave its hidden temporary file behind and a solve would print nothing.
    Raised as KeyboardInterrupt, it takes the same way out as Ctrl-C (temporary
    files removed, ``s UNKNOWN`` from ``satkit solve``). Outside the main thread
    signals are left alone.
    """
    with contextlib.ExitStack() as stack:
        for number in STOP_SIGNALS:
            stack.enter_context(signal_raises(number, KeyboardInterrupt))
        yield
