"""Run one function in a forked child under a deadline that really stops it (the child is killed).

Solvers that cannot be stopped from the inside (CaDiCaL's PySAT interrupt is
known to fail), code that may crash the interpreter (a C extension's
segfault) and checks whose running time is unbounded (a proof check) run
through :func:`call_isolated`. The child is a ``fork`` of the caller, so it
sees the caller's data (the parsed clauses) without copying or pickling
them; only the function's result travels back, pickled, through a pipe.

Where ``os.fork`` does not exist the function runs in the caller's process
and the deadline is not enforced (the result says so in ``note``).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from formats.drawing import forking
from formats.errors import machine_failure

CAN_FORK = hasattr(os, "fork")


@dataclass
class Outcome:
    """How a call ended: ``kind`` is ``ok`` (``value`` holds the result), ``error`` (the
    function raised; ``error`` says what), ``timeout`` or ``crash`` (the child died:
    ``error`` says how). ``seconds`` is the wall-clock time of the whole call."""

    kind: str
    value: Any = None
    error: str | None = None
    seconds: float = 0.0
    note: str | None = None


def describe_exception(exc: BaseException) -> str:
    """``TypeName: message`` (just the type name when the message is empty; for a
    MemoryError, whose message is empty, what it means).

    >>> describe_exception(ValueError("bad")), describe_exception(MemoryError())
    ('ValueError: bad', 'out of memory (MemoryError)')
    """
    text = str(exc)
    if isinstance(exc, MemoryError):
        return "out of memory (MemoryError)" + (f": {text}" if text else "")
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _run_inline(func: Callable[[], Any], started: float) -> Outcome:
    try:
        value = func()
    except Exception as exc:
        return Outcome("error", None, describe_exception(exc), time.perf_counter() - started)
    note = "no fork on this platform: the deadline was not enforced"
    return Outcome("ok", value, None, time.perf_counter() - started, note)


def _child(func: Callable[[], Any], write_fd: int) -> None:
    """In the child: run ``func``, send ``(kind, payload)`` pickled, exit without cleanup."""
    try:
        try:
            message: tuple[str, Any] = ("ok", func())
        except BaseException as exc:
            message = ("error", describe_exception(exc))
        try:
            data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            data = pickle.dumps(("error", "result cannot be sent back: " + describe_exception(exc)))
        view = memoryview(data)
        while view:
            view = view[os.write(write_fd, view) :]
    finally:
        os._exit(0)  # never run the parent's atexit handlers or flush its buffers


def _death(status: int) -> str:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = str(number)
        return f"the process was killed by signal {name}"
    return f"the process exited with code {os.WEXITSTATUS(status)} without an answer"


def call_isolated(
    func: Callable[[], Any], timeout: float | None, grace: Callable[[], float] | None = None
) -> Outcome:
    """Call ``func()`` in a forked child; kill the child after ``timeout`` seconds.

    ``func``'s result must pickle. Never raises for what the child does: an
    exception, a crash and a timeout are all reported in the :class:`Outcome`.
    ``grace``, asked once when the deadline passes, gives the child that many seconds
    more (0: none): a child that has its answer and is still writing it out, say.

    >>> call_isolated(lambda: 6 * 7, 5).value
    42
    >>> call_isolated(lambda: 1 / 0, 5).error
    'ZeroDivisionError: division by zero'
    """
    started = time.perf_counter()
    if not CAN_FORK:
        return _run_inline(func, started)
    try:
        read_fd, write_fd = os.pipe()
    except OSError as exc:  # no file descriptors left: the machine's failure, not func's
        raise machine_failure(exc, "start a child process") from None
    try:
        with forking():  # (no progress line half-written across it: formats.drawing)
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child's coverage is not collected
                os.close(read_fd)
                _child(func, write_fd)
    except OSError as exc:
        os.close(read_fd)
        os.close(write_fd)
        raise machine_failure(exc, "start a child process") from None
    os.close(write_fd)
    deadline = None if timeout is None else started + timeout
    chunks: list[bytes] = []
    timed_out = False
    finished = False
    try:
        while True:
            wait = None if deadline is None else deadline - time.perf_counter()
            if wait is not None and wait <= 0:
                extra = grace() if grace is not None else 0.0
                grace = None  # (once)
                if deadline is not None and extra > 0:
                    deadline += extra
                    continue
                timed_out = True
                break
            ready, _, _ = select.select([read_fd], [], [], wait)
            if not ready:
                continue
            chunk = os.read(read_fd, 1 << 20)
            if not chunk:
                finished = True
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        if not finished:  # the deadline passed, or the caller was interrupted (Ctrl-C)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    seconds = time.perf_counter() - started
    if timed_out:
        return Outcome("timeout", seconds=seconds)
    if not chunks:
        return Outcome("crash", error=_death(status), seconds=seconds)
    try:
        kind, payload = pickle.loads(b"".join(chunks))
    except Exception as exc:
        error = "unreadable answer: " + describe_exception(exc)
        return Outcome("crash", error=error, seconds=seconds)
    if kind == "ok":
        return Outcome("ok", payload, None, seconds)
    return Outcome("error", None, payload, seconds)
