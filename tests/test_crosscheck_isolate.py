"""crosscheck.isolate: a forked call returns, raises, dies or overruns — and says which."""

from __future__ import annotations

import os
import signal
import time

import pytest

from crosscheck.isolate import CAN_FORK, call_isolated, describe_exception

pytestmark = pytest.mark.skipif(not CAN_FORK, reason="needs os.fork")

BIG = list(range(200_000))


def test_value_comes_back_and_sees_the_callers_data():
    outcome = call_isolated(lambda: sum(BIG), 10)
    assert (outcome.kind, outcome.value, outcome.error) == ("ok", sum(BIG), None)


def test_large_results_travel_whole():
    assert call_isolated(lambda: [BIG, BIG], 10).value == [BIG, BIG]


def test_exception_is_reported_not_raised():
    outcome = call_isolated(lambda: {}["missing"], 10)
    assert outcome.kind == "error" and outcome.error == "KeyError: 'missing'"


def test_deadline_kills_the_child(tmp_path, running):
    pid, finished = tmp_path / "pid", tmp_path / "finished"

    def slow() -> None:
        pid.write_text(str(os.getpid()))
        time.sleep(60)
        finished.touch()

    outcome = call_isolated(slow, 0.3)
    assert outcome.kind == "timeout"
    assert not running(int(pid.read_text())) and not finished.exists()


def test_signal_death_is_a_crash():
    outcome = call_isolated(lambda: os.kill(os.getpid(), signal.SIGTERM), 10)
    assert outcome.kind == "crash" and "SIGTERM" in outcome.error


def test_exit_without_answer_is_a_crash():
    outcome = call_isolated(lambda: os._exit(7), 10)
    assert outcome.kind == "crash" and "code 7" in outcome.error


def test_unpicklable_result_is_an_error():
    outcome = call_isolated(lambda: lambda: 1, 10)
    assert outcome.kind == "error" and "cannot be sent back" in outcome.error


def test_describe_exception():
    assert describe_exception(ValueError("bad")) == "ValueError: bad"
    # (a worker out of memory said only "MemoryError: ", audit 17-B #5)
    assert describe_exception(MemoryError()) == "out of memory (MemoryError)"
    assert describe_exception(KeyError()) == "KeyError"


def test_a_child_that_cannot_start_is_the_machine_s_failure(monkeypatch):
    # no file descriptors or processes left is no solver's crash (review 17 #6)
    import errno
    import os

    import pytest

    from formats.errors import EnvironmentFailure

    def no_pipe():
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(os, "pipe", no_pipe)
    with pytest.raises(EnvironmentFailure, match="cannot start a child process: Too many"):
        call_isolated(lambda: 1, 5)


@pytest.mark.skipif(not CAN_FORK, reason="no fork on this platform")
def test_ctrl_c_while_a_fork_waits_for_a_progress_line_reaches_the_program():
    # at-fork hooks took the drawing lock: Python prints and drops what a hook raises, so a
    # Ctrl-C that came then was lost (review 26-B #1); now the fork waits in plain code
    import threading

    from formats.drawing import DRAWING

    drawing, done = threading.Event(), threading.Event()

    def draw() -> None:  # a progress line being written, slowly
        with DRAWING:
            drawing.set()
            done.wait(10)

    artist = threading.Thread(target=draw)
    artist.start()
    drawing.wait(10)
    ctrl_c = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    ctrl_c.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call_isolated(lambda: "forked", timeout=10)
    finally:
        done.set()
        artist.join()
        ctrl_c.cancel()
    assert call_isolated(lambda: "forked", timeout=10).value == "forked"  # the lock is free


@pytest.mark.skipif(not CAN_FORK, reason="no fork on this platform")
def test_a_fork_beside_the_progress_thread_holds_the_lock_and_is_not_warned_about() -> None:
    # Python 3.12+ warned "This process … is multi-threaded, use of fork() may lead to
    # deadlocks" at every fork made while a progress line was shown (audit 26-C F5); the
    # fork is safe since the progress thread takes no lock but DRAWING, held across it
    import threading
    import warnings

    from formats.drawing import DRAWING, forking

    stop = threading.Event()
    ticker = threading.Thread(target=stop.wait, args=(10,), daemon=True)
    ticker.start()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with forking():
                free = []
                other = threading.Thread(target=lambda: free.append(DRAWING.acquire(False)))
                other.start()
                other.join()
                pid = os.fork()
                if pid == 0:  # pragma: no cover - the child
                    os._exit(0)
            os.waitpid(pid, 0)
    finally:
        stop.set()
        ticker.join()
    assert free == [False]  # held across the fork
    assert [str(w.message) for w in caught if "multi-threaded" in str(w.message)] == []
    # what Python 3.12+ says at such a fork (3.11, CI's, says nothing: so it is said here)
    said = "This process (pid=1) is multi-threaded, use of fork() may lead to deadlocks"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with forking():
            warnings.warn(said, DeprecationWarning, stacklevel=1)
        warnings.warn(said, DeprecationWarning, stacklevel=1)  # (only a fork's is silenced)
    assert [str(w.message) for w in caught] == [said]
