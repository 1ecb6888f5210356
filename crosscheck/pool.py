"""A pool of forked worker processes that survives its workers: a crash or a runaway task
costs that task only.

``concurrent.futures`` gives up on the whole pool when one worker dies and
``multiprocessing.Pool`` hangs; batch cross-checking needs the opposite. Each
worker runs in its own process group, and killing it also kills the solver
processes it started, with everything they started.
Tasks are indices: the workers are forks of the caller and already hold
whatever the indices refer to; only results are pickled.
Where ``fork`` does not exist (Windows) the tasks run one after the other in
the caller's process, without that protection.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import shutil
import signal
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from crosscheck import external
from crosscheck.external import kill_descendants, signals_held
from crosscheck.isolate import describe_exception
from formats.drawing import forking
from formats.errors import EnvironmentFailure, machine_failure
from formats.signals import STOP_SIGNALS

R = TypeVar("R")

_POLL_SECONDS = 0.25


def _worker_main(
    conn: Connection,
    work: Callable[[int], Any],
    folder: str,
    parents: list[Connection],
    pool_pid: int,
) -> None:
    """A worker's life: take an index, send back ``(index, "ok", result)`` or an error.

    Its temporary files go to ``folder``, which the pool removes whatever the worker's
    end (a killed worker runs no cleanup of its own). ``parents`` are the pool's ends of
    the workers' pipes, inherited by the fork: closed here, so that the worker reads
    the end of its pipe when the pool's process is gone, instead of waiting for ever."""
    external.USER_TEMP = tempfile.gettempdir()  # (what messages call TMPDIR)
    tempfile.tempdir = folder
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    for number in _WORKER_STOPS:
        if signal.getsignal(number) != signal.SIG_IGN:  # (nohup: SIGHUP stays ignored)
            signal.signal(number, _stop_worker)
    if hasattr(signal, "SIGXCPU"):
        # a worker's own CPU limit (inherited from `ulimit -S -t`, and counted per worker)
        # kills it, as before SIGXCPU became a stop signal: the pool then says so ("killed
        # by signal SIGXCPU"), where a quiet stop read as a crash with exit code 0
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    with contextlib.suppress(KeyboardInterrupt):
        # SIGTERM (raised as KeyboardInterrupt, so that a running solver program is killed
        # on the way out) ends the worker quietly, not with a traceback
        try:
            for end in parents:
                end.close()
            _die_with_parent(pool_pid)
            with contextlib.suppress(OSError):
                os.setpgid(0, 0)
            _serve(conn, work)
        finally:
            # from here on a stop signal changes nothing (one raised before this is done
            # is caught just above, however it ended): the clean-up below runs whole
            for number in _WORKER_STOPS:
                signal.signal(number, signal.SIG_IGN)
    # on the way out, its folder goes (the pool removes it too, but the pool's process
    # may be gone: killed, it is what sent the stop signal)
    shutil.rmtree(folder, ignore_errors=True)


_WORKER_STOPS = tuple(n for n in STOP_SIGNALS if n != getattr(signal, "SIGXCPU", None))
"""What stops a worker quietly: the stop signals but SIGXCPU (see `_worker_main`)."""


def _stop_worker(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def _die_with_parent(parent: int) -> None:
    """Ask Linux to send this process SIGTERM when its parent dies (killed with SIGKILL,
    say, which runs none of the pool's cleanup): raised as KeyboardInterrupt, it kills
    the solver program the worker runs on its way out. Elsewhere nothing is done."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the request: nobody will tell us
        os.kill(os.getpid(), signal.SIGTERM)


def _serve(conn: Connection, work: Callable[[int], Any]) -> None:
    """Answer tasks until told to stop (None) or the parent is gone."""
    while True:
        try:
            index = conn.recv()
        except (EOFError, OSError):
            return
        if index is None:
            return
        try:
            message = (index, "ok", work(index))
        except EnvironmentFailure as exc:  # the machine's fault: the pool stops
            message = (index, "fatal", str(exc))
        except Exception as exc:
            message = (index, "error", describe_exception(exc))
        try:
            conn.send(message)
        except (OSError, ValueError):
            return


@dataclass
class _Worker:
    process: Any
    conn: Connection
    folder: str  # its temporary files (see `_worker_main`)
    task: int | None = None
    started: float = 0.0


def _kill(worker: _Worker) -> None:
    """Kill a worker, every process of its group, and every process descended from it
    (also one that left the group)."""
    pid = worker.process.pid
    kill_descendants(pid)
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        worker.process.kill()
    worker.process.join(5)
    worker.conn.close()
    shutil.rmtree(worker.folder, ignore_errors=True)


def _death(process: Any) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return f"the worker was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"the worker was killed by signal {-code}"
    return f"the worker exited with code {code}"


def _run_inline(
    count: int, work: Callable[[int], R], lost: Callable[[int, str, str], R]
) -> Iterator[tuple[int, R]]:
    """Where processes cannot be forked: one task after the other in this process."""
    for index in range(count):
        try:
            yield index, work(index)
        except EnvironmentFailure:
            raise
        except Exception as exc:
            yield index, lost(index, "crash", describe_exception(exc))


def run_pool(
    count: int,
    work: Callable[[int], R],
    lost: Callable[[int, str, str], R],
    *,
    jobs: int = 1,
    watchdog: float | None = None,
) -> Iterator[tuple[int, R]]:
    """Run ``work(i)`` for i in 0..count-1 on ``jobs`` forked workers; yield ``(i, result)``
    in the order they finish.

    When a worker dies, raises, or runs one task longer than ``watchdog``
    seconds, the result is ``lost(i, kind, reason)`` with kind ``crash`` or
    ``timeout``, and a fresh worker takes its place; an `EnvironmentFailure`
    (the machine's fault: a full disk, say) is raised here instead, and the
    pool stops. Closing the generator (or an exception in the caller) kills
    every worker.
    """
    if count <= 0:
        return
    if "fork" not in multiprocessing.get_all_start_methods():
        yield from _run_inline(count, work, lost)
        return
    context = multiprocessing.get_context("fork")
    pending = deque(range(count))
    workers: list[_Worker] = []

    def spawn() -> _Worker:
        try:
            mine, theirs = context.Pipe()
        except OSError as exc:
            raise machine_failure(exc, "start a worker process") from None
        folder = tempfile.mkdtemp(prefix="satkit-worker-")
        parents = [mine, *(worker.conn for worker in workers)]
        process = context.Process(
            target=_worker_main, args=(theirs, work, folder, parents, os.getpid()), daemon=True
        )
        try:
            with forking():  # (no progress line half-written across it: formats.drawing)
                process.start()
        except BaseException as exc:  # no file descriptors left, say: no folder may stay
            mine.close()  # (first: removing the folder needs a descriptor)
            theirs.close()
            shutil.rmtree(folder, ignore_errors=True)
            if isinstance(exc, OSError):
                raise machine_failure(exc, "start a worker process") from None
            raise
        theirs.close()
        with contextlib.suppress(OSError):
            os.setpgid(process.pid, process.pid)  # also here: no race with the child's own call
        return _Worker(process, mine, folder)

    try:
        for _ in range(max(1, min(jobs, count))):
            workers.append(spawn())  # (one by one: each fork closes the ends before it)
        while True:
            for position, worker in enumerate(workers):
                if worker.task is None and pending:
                    task = pending.popleft()
                    try:
                        worker.conn.send(task)
                    except (OSError, ValueError):  # it died idle (killed from outside)
                        _kill(worker)
                        worker = workers[position] = spawn()
                        worker.conn.send(task)
                    worker.task, worker.started = task, time.monotonic()
            busy = [worker for worker in workers if worker.task is not None]
            if not busy:
                break
            waitables: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            wait(waitables, timeout=_POLL_SECONDS)
            now = time.monotonic()
            for position, worker in enumerate(workers):
                task = worker.task
                if task is None:
                    continue
                message = None
                try:
                    if worker.conn.poll():
                        message = worker.conn.recv()
                except (EOFError, OSError):
                    message = None
                if message is not None:
                    worker.task = None
                    index, kind, payload = message
                    if kind == "fatal":
                        raise EnvironmentFailure(payload)
                    yield index, payload if kind == "ok" else lost(index, "crash", payload)
                    continue
                if not worker.process.is_alive():
                    reason = _death(worker.process)
                elif watchdog is not None and now - worker.started > watchdog:
                    reason = f"the worker ran more than {watchdog:g} s on this instance"
                else:
                    continue
                _kill(worker)
                workers[position] = spawn()
                kind = "timeout" if reason.endswith("on this instance") else "crash"
                yield task, lost(task, kind, reason)
    except BaseException:  # Ctrl-C, SIGTERM, the caller closing the generator, …
        _stop(workers)  # (a Ctrl-C meanwhile changes nothing: we are stopping already)
        raise
    if _stop(workers):
        raise KeyboardInterrupt  # pressed while the workers were being stopped


def _stop(workers: list[_Worker]) -> bool:
    """Stop every worker (idle ones are told to leave, busy ones killed) and remove their
    folders. Ctrl-C and SIGTERM are held meanwhile, so that a second one (``timeout -s
    INT`` signals the process and then its group) cannot leave a worker running, to be
    terminated by multiprocessing at exit with a traceback; returns whether one came."""
    with signals_held() as caught:
        for worker in workers:
            with contextlib.suppress(Exception):
                if worker.task is None:
                    worker.conn.send(None)
        deadline = time.monotonic() + 2
        for worker in workers:
            if worker.task is None:
                worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive() or worker.task is not None:
                _kill(worker)
            else:
                worker.conn.close()
                shutil.rmtree(worker.folder, ignore_errors=True)
    return bool(caught)
