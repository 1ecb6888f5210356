"""crosscheck.pool: every task gets exactly one result, whatever its worker does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from crosscheck.pool import run_pool


def _work(index: int) -> int:
    if index == 2:
        os.kill(os.getpid(), signal.SIGKILL)  # the worker dies mid-task
    if index == 4:
        time.sleep(120)  # runaway: the watchdog must kill it
    if index == 6:
        raise ValueError("bad task")
    return index * index


def _lost(index: int, kind: str, reason: str) -> tuple[str, str]:
    return (kind, reason)


def test_every_task_has_one_result_and_the_pool_survives():
    results = dict(run_pool(9, _work, _lost, jobs=2, watchdog=1.0))
    assert sorted(results) == list(range(9))
    assert results[2] == ("crash", "the worker was killed by signal SIGKILL")
    assert results[4] == ("timeout", "the worker ran more than 1 s on this instance")
    assert results[6] == ("crash", "ValueError: bad task")
    for index in (0, 1, 3, 5, 7, 8):
        assert results[index] == index * index


def test_one_job_and_no_tasks():
    assert list(run_pool(3, lambda i: i + 1, _lost, jobs=1)) == [(0, 1), (1, 2), (2, 3)]
    assert list(run_pool(0, lambda i: i, _lost, jobs=4)) == []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_closing_early_kills_the_workers():
    results = run_pool(5, lambda i: time.sleep(0.2 if i else 0) or os.getpid(), _lost, jobs=2)
    _index, pid = next(results)
    results.close()
    time.sleep(0.2)
    # the worker was told to stop or killed; a zombie is reaped by join, so it is gone
    assert not _alive(pid)


def test_without_fork_tasks_run_inline(monkeypatch):
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])

    def work(index: int) -> int:
        if index == 1:
            raise ValueError("bad")
        return os.getpid()

    results = dict(run_pool(3, work, _lost, jobs=2))
    assert results[0] == results[2] == os.getpid()
    assert results[1] == ("crash", "ValueError: bad")


def _leaves_temporary_files(index: int) -> str:
    import tempfile

    folder = tempfile.mkdtemp(prefix="task-")  # in the worker's own folder
    if index == 0:
        os.kill(os.getpid(), signal.SIGKILL)  # no cleanup of its own can run
    if index == 1:
        time.sleep(120)  # killed by the watchdog
    return folder


def test_the_temporary_files_of_every_worker_are_removed(tmp_path, monkeypatch):
    # a killed worker runs no `finally`: its TemporaryDirectory (an instance's copy, a
    # program's output) stayed in /tmp; each worker now has a folder the pool removes
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    results = dict(run_pool(4, _leaves_temporary_files, _lost, jobs=2, watchdog=1.0))
    assert results[0][0] == "crash" and results[1][0] == "timeout"
    assert os.path.dirname(os.path.dirname(results[2])) == str(tmp_path)
    assert os.listdir(tmp_path) == []


def test_a_second_ctrl_c_while_stopping_still_stops_every_worker(monkeypatch):
    # `timeout -s INT` signals the process, then its group: the second KeyboardInterrupt
    # used to cut the cleanup short, and multiprocessing's exit handler then sent the
    # live worker SIGTERM, which it printed as a traceback
    import crosscheck.pool as pool

    real_kill = pool._kill
    killed = []

    def kill_after_a_second_ctrl_c(worker):
        os.kill(os.getpid(), signal.SIGINT)  # the second Ctrl-C, as the cleanup starts
        killed.append(worker.process.pid)
        real_kill(worker)

    monkeypatch.setattr(pool, "_kill", kill_after_a_second_ctrl_c)
    results = run_pool(3, lambda i: time.sleep(0 if i == 0 else 60) or os.getpid(), _lost, jobs=2)
    interrupted = False
    try:
        for _index, _pid in results:
            raise KeyboardInterrupt  # the first Ctrl-C, with a worker still busy
    except KeyboardInterrupt:
        interrupted = True
    finally:
        results.close()  # as crosscheck's batch and fuzz loops do
    assert interrupted and killed
    assert not any(_alive(pid) for pid in killed)


def _raise_keyboard_interrupt(_signum, _frame):
    raise KeyboardInterrupt


def test_sigterm_ends_a_worker_without_a_traceback(capfd):
    # the workers inherit the command's SIGTERM handler (raise KeyboardInterrupt, so that
    # a running solver program is killed on the way out); the worker then ends quietly
    previous = signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
    try:
        results = run_pool(2, lambda i: time.sleep(0 if i == 0 else 60) or os.getpid(), _lost)
        _index, pid = next(results)
        threading.Timer(0.3, os.kill, (pid, signal.SIGTERM)).start()  # busy with task 1
        index, outcome = next(results)
        results.close()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert index == 1 and outcome == ("crash", "the worker exited with code 0")
    assert "Traceback" not in capfd.readouterr().err


def test_a_worker_killed_while_idle_is_replaced():
    results = run_pool(3, lambda i: os.getpid(), _lost, jobs=1)
    _index, pid = next(results)
    os.kill(pid, signal.SIGKILL)  # between two tasks: the task must go to a new worker
    time.sleep(0.1)
    rest = dict(results)
    assert sorted(rest) == [1, 2] and pid not in rest.values()


def test_workers_end_when_the_pool_s_process_is_killed(tmp_path):
    # SIGKILL (or a SIGHUP before it was handled) runs none of the pool's cleanup: the
    # workers ran on, and an idle one waited for ever on its own end of the pipe, which
    # it held open itself (audit 17-B #2)
    script = tmp_path / "pool.py"
    script.write_text(
        "import os, sys, tempfile, time, psutil\n"
        "from crosscheck.pool import run_pool\n"
        "results = run_pool(2, lambda i: time.sleep(60 * i) or os.getpid(),\n"
        "                   lambda i, kind, why: (kind, why), jobs=2)\n"
        "next(results)  # task 0 is done: its worker is idle, the other one busy\n"
        "print(*(child.pid for child in psutil.Process().children()), flush=True)\n"
        "print(*(w for w in os.listdir(tempfile.gettempdir()) if w.startswith('satkit-worker-')),\n"
        "      flush=True)\n"
        "time.sleep(600)\n"
    )
    root = str(Path(__file__).resolve().parents[1])
    process = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                               cwd=root, env={**os.environ, "PYTHONPATH": root,
                                              "TMPDIR": str(tmp_path)})  # fmt: skip
    workers = [int(pid) for pid in process.stdout.readline().split()]
    assert len(workers) == 2
    folders = [tmp_path / name for name in process.stdout.readline().split()]
    assert len(folders) == 2 and all(folder.is_dir() for folder in folders)
    process.kill()
    process.wait()
    for _ in range(600):  # (a hang guard: they end within milliseconds)
        if not any(_running(pid) for pid in workers):
            break
        time.sleep(0.1)
    assert not any(_running(pid) for pid in workers)
    assert not any(folder.exists() for folder in folders)  # each removed its own


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's parent may never reap it, in a container)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_a_failure_of_the_machine_stops_the_pool():
    # a full disk or no file descriptors left is no solver's crash: the batch stops with
    # one error line (audit 17-B #5, #12)
    from formats.errors import EnvironmentFailure

    def work(index):
        if index == 1:
            raise EnvironmentFailure("cannot start cadical: Too many open files")
        return index

    results = run_pool(3, work, _lost, jobs=1)
    with pytest.raises(EnvironmentFailure, match="Too many open files"):
        dict(results)


def test_a_worker_that_cannot_start_leaves_no_folder(tmp_path, monkeypatch):
    # the folder was removed before the pipe's descriptors were freed, which removing it
    # needs when none are left (review 17b #2)
    import errno
    import multiprocessing.process
    import tempfile

    from formats.errors import EnvironmentFailure

    def no_descriptors(self):
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", no_descriptors)
    with pytest.raises(EnvironmentFailure, match="cannot start a worker process"):
        list(run_pool(2, lambda i: i, _lost, jobs=2))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not hasattr(signal, "SIGXCPU"), reason="CPU-time limits are POSIX")
def test_a_worker_past_its_cpu_limit_is_reported_as_killed_by_sigxcpu():
    # with SIGXCPU a stop signal, a worker at its own (inherited, per-process) CPU limit
    # stopped quietly, and the pool reported "the worker exited with code 0" (review 19 #1)
    previous = signal.getsignal(signal.SIGXCPU)
    signal.signal(signal.SIGXCPU, _raise_keyboard_interrupt)  # as satkit's commands set it
    try:
        results = run_pool(1, lambda i: os.kill(os.getpid(), signal.SIGXCPU), _lost)
        index, outcome = next(results)
        results.close()
    finally:
        signal.signal(signal.SIGXCPU, previous)
    assert index == 0 and outcome == ("crash", "the worker was killed by signal SIGXCPU")
