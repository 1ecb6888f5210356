"""How much memory this process can still get: commands refuse sizes that cannot fit."""

from __future__ import annotations

import contextlib
import os


def available_memory() -> int | None:
    """Bytes of memory this process can still get (None when unknown): the least of
    Linux's ``MemAvailable``, what the address-space limit (``ulimit -v``) leaves, and
    what the cgroup's ``memory.max`` (a container's limit) leaves.

    Commands compare it with a lower bound of what an input needs, to refuse a size
    that cannot fit with one error line instead of a MemoryError or the OOM killer.
    """
    limits = [_meminfo_available(), _address_space_left(), _cgroup_left()]
    known = [limit for limit in limits if limit is not None]
    return min(known) if known else None


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _address_space_left() -> int | None:
    """The ``RLIMIT_AS`` soft limit minus this process's virtual size (None: no limit)."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return max(0, soft - int(line.split()[1]) * 1024)
    except (ImportError, OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_left(root: str = "/sys/fs/cgroup", groups: str = "/proc/self/cgroup") -> int | None:
    """What cgroup v2 leaves this process: the least ``memory.max - memory.current`` over
    its cgroup and the cgroups above it (a systemd slice, a container), or None when no
    limit is set (or there is no cgroup v2). Reclaimable page cache is not counted as
    used (``inactive_file`` of ``memory.stat``)."""
    try:
        with open(groups) as groups_file:
            lines = [line.strip() for line in groups_file]
    except OSError:
        return None
    path = next((line[3:] for line in lines if line.startswith("0::")), None)
    if path is None:
        return None
    left = None
    top = os.path.normpath(root)
    folder = os.path.join(top, path.lstrip("/"))
    while True:
        room = _cgroup_room(folder)
        if room is not None:
            left = room if left is None else min(left, room)
        if os.path.normpath(folder) == top:
            return left
        folder = os.path.dirname(os.path.normpath(folder))


def _cgroup_room(folder: str) -> int | None:
    """``memory.max`` minus what is used in one cgroup folder (None: no limit there)."""
    try:
        with open(os.path.join(folder, "memory.max")) as limit_file:
            limit = limit_file.read().strip()
        if limit == "max":
            return None
        with open(os.path.join(folder, "memory.current")) as current_file:
            used = int(current_file.read().strip())
        with contextlib.suppress(OSError, ValueError), open(
            os.path.join(folder, "memory.stat")
        ) as stat_file:
            for line in stat_file:
                if line.startswith("inactive_file "):
                    used -= int(line.split()[1])
                    break
        return max(0, int(limit) - used)
    except (OSError, ValueError):
        return None
