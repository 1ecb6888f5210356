"""The lock every progress line is drawn under, which a fork of the process waits for.

A child forked while another thread was writing a progress line to stderr would inherit
that thread's locks (this one, and stderr's buffer lock) held by a thread it does not have,
and block on its first write to stderr: a worker of crosscheck that then looks like a
timeout. So a progress line is written only while `DRAWING` is held, and code that forks
(``crosscheck.isolate``, ``crosscheck.pool``) holds it across the fork: ``with DRAWING:``.
That is done where the fork is, not in ``os.register_at_fork`` hooks, whose exceptions
Python prints and drops: a Ctrl-C that came during the fork was lost (review 26-B #1).

Reentrant, so that a thread that holds it may fork, and owned: the forked child's one
thread owns it too, and exits without needing it.
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from collections.abc import Iterator

DRAWING = threading.RLock()


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Hold `DRAWING` across a fork made in the block, without Python 3.12's warning that
    forking a process with threads "may lead to deadlocks in the child": the only other
    thread satkit runs is a progress ticker, which takes no lock but `DRAWING` (and, under
    it, stderr's), so the child inherits none held (audit 26-C F5)."""
    with DRAWING, warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore",
            message=r"This process \(pid=\d+\) is multi-threaded",
            category=DeprecationWarning,
        )
        yield
