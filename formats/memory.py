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


def shortage(
    lead: str, need: int, have: int | None, resource: str | None = None, hint: str = ""
) -> str | None:
    """``LEAD need at least X GB[ of RESOURCE]; Y MB are available[ HINT]`` when ``need``
    bytes surely exceed the ``have`` available, else None (also when ``have`` is unknown)."""
    if have is None or need <= have:
        return None
    of = f" of {resource}" if resource else ""
    return f"{lead} need at least {byte_size(need)}{of}; {byte_size(have)} are available{hint}"


def byte_size(size: int) -> str:
    """``size`` bytes for a message: ``512 bytes``, ``61.4 KB``, ``2.3 MB``, ``1.0 GB``, and
    whole GB from 1,000 GB on (exact for any int, where a float would print
    570,000,000,000,000,064.0). One decimal everywhere else, so 0.0 never shows a size.

    >>> byte_size(65_536), byte_size(153_807 * 24), byte_size(10**9), byte_size(57 * 10**20)
    ('65.5 KB', '3.7 MB', '1.0 GB', '5,700,000,000,000 GB')
    """
    if size >= 10**12:
        return f"{size // 10**9:,} GB"
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"
