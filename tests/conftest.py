"""Shared fixtures: the read-only material in ``../shared`` beside the checkout.

Tests that need it take one of these fixtures and are skipped, with the reason,
when the folder is absent (a bare clone without ``../shared``). CI has it.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw new examples on every local run, to find what earlier runs missed.
# CI sets HYPOTHESIS_PROFILE=ci: examples seeded from each test (the same on every run with
# the same hypothesis), so a CI failure reproduces and a re-run cannot pass by luck; the
# failing example's blob is printed for @reproduce_failure.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

# A job started in the background by a script (`pytest … &`) begins with Ctrl-C ignored,
# and the programs it starts inherit that: the Ctrl-C tests would then test nothing and
# fail. Give the test process (and through it every child) Python's own handler.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _folder(path: Path) -> Path:
    if not path.is_dir():
        pytest.skip(f"{path} is absent (the shared data lives in ../shared beside the checkout)")
    return path


@pytest.fixture(scope="session")
def shared() -> Path:
    """``../shared`` (skips the test when it is absent)."""
    return _folder(SHARED)


@pytest.fixture(scope="session")
def compat(shared: Path) -> Path:
    """``../shared/compat``: real files written by other implementations (see its SOURCES.md)."""
    return _folder(shared / "compat")


@pytest.fixture(scope="session")
def satlib(shared: Path) -> Path:
    """``../shared/bench/satlib``: 2,511 SATLIB CNF files, one folder per family."""
    return _folder(shared / "bench" / "satlib")


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            state = handle.read().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return False
    except OSError:  # no /proc (macOS): ask the kernel; a zombie still counts as running
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state != "Z"


@pytest.fixture(scope="session")
def running() -> Callable[[int], bool]:
    """Whether a process still runs: a zombie (killed, not yet reaped by its new parent,
    as orphans in a container may stay) does not."""
    return _running
