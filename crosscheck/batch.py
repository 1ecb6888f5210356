"""Batch cross-checking: many instance files on worker processes, each record appended to a
JSON-lines log as it finishes, and ``--resume`` picking up where an interrupted batch stopped.

The log holds one JSON object per line (see :func:`crosscheck.check.check_instance`
for its fields), in ASCII (names that are not UTF-8 escaped) and never with a bare
``NaN``/``Infinity``. A new batch replaces the log; ``--resume`` keeps its records
and appends. Each record is written with a single ``write`` and flushed, so an
interrupted batch loses at most the line being written; on resume a torn last line
is cut off before anything is appended. Records read back are checked field by
field (:func:`record_problem`): a hand-edited or foreign log is one error line.
"""

from __future__ import annotations

import functools
import json
import math
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from crosscheck.check import OUTCOMES, CheckOptions, bad_input_record, check_instance
from crosscheck.instances import load_instance
from crosscheck.pool import run_pool
from formats.errors import FormatError, number_too_long
from formats.memory import available_memory
from formats.streams import display_name, read_bytes


@dataclass
class BatchOptions:
    """Everything a batch needs besides the paths."""

    check: CheckOptions = field(default_factory=CheckOptions)
    encoding: str = "assignment"
    maze_path: str | None = None
    strict: bool = False
    jobs: int = 1
    maze_data: bytes | None = None  # the maze's bytes when maze_path is "-" (stdin)

    def watchdog(self) -> float:
        """Seconds after which a worker is presumed stuck on one instance and killed:
        every solver, proof check and search at its full timeout, plus parsing slack."""
        return self.check.timeout * (2 * len(self.check.solvers) + 3) + 60.0


def record_key(record: dict[str, Any]) -> tuple[str, tuple[str, ...], int]:
    """What identifies a finished instance for ``--resume``: its file, the solvers run and
    their seed (0 in records written before the seed was recorded, the default then).

    The file is its real path, as a batch tells files apart (`discover`): a batch started
    as ``~/bench`` resumes as ``/data/bench`` when one is a link to the other (resuming
    through a link checked everything again and logged every file twice)."""
    path = record.get("path")
    name = real_path(path) if path else record.get("instance") or ""
    # the solvers as a set: `-s minisat22,dpll` resumes `-s dpll,minisat22` (audit 21-C #2)
    return (name, tuple(sorted(record.get("solvers", ()))), record.get("solver_seed", 0))


@functools.lru_cache(maxsize=4096)
def _real_folder(folder: str) -> str:
    return os.path.realpath(folder)


def real_path(path: str) -> str:
    """``os.path.realpath(path)``, its folder's resolved once for the many files of a batch
    (a link to the file itself is still followed), each path once while a batch's keys
    are compared: --resume through a big log resolved every path six times. The caches
    hold absolute paths only (a relative one means another file in another folder), with
    ``..`` left for `os.path.realpath` (``link/../f`` is beside the link's target), and
    `forget_real_paths` empties them (a batch starts with it: links may have moved)."""
    return _real_absolute(path if os.path.isabs(path) else os.path.join(os.getcwd(), path))


@functools.lru_cache(maxsize=1 << 17)
def _real_absolute(path: str) -> str:
    folder, name = os.path.split(path)
    full = os.path.join(_real_folder(folder), name)
    return os.path.realpath(full) if os.path.islink(full) else full


def forget_real_paths() -> None:
    """Empty `real_path`'s caches."""
    _real_absolute.cache_clear()
    _real_folder.cache_clear()


def instance_key(
    path: str, solvers: Sequence[str], seed: int = 0
) -> tuple[str, tuple[str, ...], int]:
    """The :func:`record_key` the instance at ``path`` gets when checked by ``solvers``
    with ``seed``."""
    name = display_name(path) if path == "-" else real_path(path)
    return (name, tuple(sorted(solvers)), seed)


VERDICTS = (*OUTCOMES, "bad-input")
"""Every verdict a record may carry."""

STATUSES = ("SAT", "UNSAT", "timeout", "crash")
"""Every status a run may carry."""


def _kind(value: Any) -> str:
    """How a JSON value is described in a message: ``a string``, ``the number 3``, …"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {json.dumps(value)}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        shown = json.dumps(value[:40]) + ("…" if len(value) > 40 else "")
        return f"the string {shown}"
    return "a list" if isinstance(value, list) else "an object"


def _owner(where: str) -> str:
    """How a message names whose field it is: nothing for the record, ``run 'x': `` for a run."""
    return "" if where == "record" else f"{where}: "


def _field_problem(
    where: str, record: dict[str, Any], name: str, wanted: str, *, required: bool = True
) -> str | None:
    """Why ``record[name]`` is missing or not of the ``wanted`` kind, or None when fine.

    ``wanted``: ``str``, ``str?`` (or null), ``list[str]``, ``object``, ``seconds``
    (a finite number ≥ 0), ``seconds?``, or ``one of A|B|…`` (``?`` at the end allows null).
    """
    if name not in record:
        return f"{where} lacks {name!r}" if required else None
    value = record[name]
    nullable = wanted.endswith("?")
    kind = wanted.rstrip("?")
    if value is None and nullable:
        return None
    if kind == "str":
        ok = isinstance(value, str)
    elif kind == "list[str]":
        ok = isinstance(value, list) and all(isinstance(item, str) for item in value)
    elif kind == "object":
        ok = isinstance(value, dict)
    elif kind == "seconds":
        ok = (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and math.isfinite(value)
            and value >= 0
        )
    else:
        choices = kind.removeprefix("one of ").split("|")
        if value in choices and isinstance(value, str):
            return None
        shown = ", ".join(repr(choice) for choice in choices) + (" or null" if nullable else "")
        return f"{_owner(where)}{name!r} is {_kind(value)}, not one of {shown}"
    if ok:
        return None
    described = {
        "str": "a string",
        "list[str]": "a list of strings",
        "object": "an object",
        "seconds": "a number of seconds",
    }[kind]
    return f"{_owner(where)}{name!r} is {_kind(value)}, not {described}" + (
        " or null" if nullable else ""
    )


def record_problem(record: dict[str, Any]) -> str | None:
    """What is wrong with a log record read back (a missing field, a wrong type, an unknown
    verdict), or None when the summary, the plot and ``--resume`` can use it."""
    checks = [
        ("instance", "str", True),
        ("path", "str?", False),
        ("solvers", "list[str]", True),
        ("verdict", "one of " + "|".join(VERDICTS), True),
        ("answer", "one of SAT|UNSAT?", False),
        ("error", "str", False),
        ("timeout", "seconds?", False),
        ("runs", "object", True),
    ]
    for name, wanted, required in checks:
        problem = _field_problem("record", record, name, wanted, required=required)
        if problem:
            return problem
    for solver, run in record["runs"].items():
        where = f"run {solver!r}"
        if not isinstance(run, dict):
            return f"{where} is {_kind(run)}, not an object"
        run_checks = [
            ("status", "one of " + "|".join(STATUSES), True),
            ("outcome", "one of " + "|".join(OUTCOMES), True),
            ("seconds", "seconds", True),
            ("detail", "str", False),
            ("proof", "str", False),
            ("path", "str", False),
            ("stats", "object", False),
        ]
        for name, wanted, required in run_checks:
            problem = _field_problem(where, run, name, wanted, required=required)
            if problem:
                return problem
    return None


def read_log(path: str) -> list[dict[str, Any]]:
    """The records of a JSON-lines log (a torn last line is ignored). Missing file: none.

    Raises FormatError for a line that is not a JSON object (other than a torn last line)
    and for a record that lacks a field or has one of the wrong kind (:func:`record_problem`).
    """
    if not os.path.exists(path):
        return []
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if b"\n" not in data[exc.start :]:  # a torn last line, cut in a character
            text = data.decode("utf-8", "replace")
        else:
            line = data.count(b"\n", 0, exc.start) + 1
            message = f"not UTF-8 text (byte 0x{data[exc.start]:02x})"
            raise FormatError(display_name(path), line, message) from None
    lines = text.split("\n")
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:  # (JSONDecodeError is a ValueError)
            if number == len(lines):  # the last line has no newline: a torn write
                continue
            raise _not_a_record(exc, line, display_name(path), number) from None
        if not isinstance(record, dict):
            raise FormatError(display_name(path), number, "not a JSON object")
        problem = record_problem(record)
        if problem:
            raise FormatError(display_name(path), number, problem)
        records.append(record)
    return records


def _not_a_record(exc: Exception, line: str, name: str, number: int) -> Exception:
    """What to raise for line ``number`` of a log, which ``json.loads`` refused with ``exc``:
    a FormatError saying why, or ``exc`` itself when it is no fault of the line's."""
    if isinstance(exc, json.JSONDecodeError):
        return FormatError(name, number, f"not a JSON record: {exc.msg}")
    if isinstance(exc, RecursionError):
        return FormatError(name, number, "not a JSON record: nested too deeply")
    if isinstance(exc, ValueError):  # int()'s digit limit
        return number_too_long(exc, line, name, "not a JSON record", number) or exc
    return exc


class ResultLog:
    """The JSON-lines log of a batch: a new log replaces ``path``; with ``resume`` its
    records are read back (:attr:`previous`) and new ones appended (``path`` ``-`` =
    stdout, never resumed)."""

    def __init__(self, path: str, *, resume: bool) -> None:
        self.path = path
        self.previous: list[dict[str, Any]] = []
        self._handle: IO[str]
        if path == "-":
            self._handle = sys.stdout
            return
        if resume:
            self.previous = read_log(path)
            _cut_torn_line(path)
            self._handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()
        else:
            self._handle = open(path, "w", encoding="utf-8")  # noqa: SIM115

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one line and flush it."""
        try:
            self._handle.write(record_line(record))
            self._handle.flush()
        except OSError as exc:
            raise self._named(exc) from None

    def close(self) -> None:
        """Close the file (stdout stays open)."""
        if self.path != "-":
            try:
                self._handle.close()
            except OSError as exc:
                raise self._named(exc) from None

    def _named(self, exc: OSError) -> OSError:
        """``exc`` naming the log (a full disk's error names no file)."""
        if exc.filename is None and self.path != "-":
            return OSError(exc.errno, exc.strerror, self.path)
        return exc


def record_line(record: dict[str, Any]) -> str:
    """A record as one line of strict JSON: ASCII only (a file name that is not UTF-8
    keeps its bytes as ``\\udcXX`` escapes), and ValueError rather than a bare ``NaN`` or
    ``Infinity``, which no JSON reader but Python's accepts."""
    return json.dumps(record, ensure_ascii=True, allow_nan=False) + "\n"


def _cut_torn_line(path: str) -> None:
    """Drop an unfinished last line (no final newline) so appended records start clean;
    a last line that is a whole record (a hand-edited log) only gets its newline."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return
    with open(path, "rb+") as handle:
        data = handle.read()
        if data.endswith(b"\n"):
            return
        cut = data.rfind(b"\n") + 1
        try:
            whole = isinstance(json.loads(data[cut:]), dict)  # only the newline is missing
        except (ValueError, RecursionError):
            whole = False
        if whole:
            handle.write(b"\n")
        else:
            handle.truncate(cut)


def _file_size(path: str) -> int:
    """Bytes on disk (0 for stdin or a file that cannot be read: it fails fast anyway)."""
    if path == "-":
        return 0
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def schedule(paths: Sequence[str], jobs: int) -> list[int]:
    """The order to start ``paths`` in (indices): as given for one job; for several,
    biggest files first (stable), so that one long instance started last does not
    leave the other workers idle at the end — the issue's closing SATLIB batch on 2
    jobs went from 16.7 s to 11.5 s (bw_large.d, 8.7 s alone, had been last)."""
    order = list(range(len(paths)))
    if jobs > 1:
        order.sort(key=lambda i: -_file_size(paths[i]))
    return order


def check_paths(
    paths: Sequence[str],
    options: BatchOptions,
    *,
    stdin_data: bytes | None = None,
) -> Iterator[dict[str, Any]]:
    """Check every file of ``paths`` on ``options.jobs`` workers; yield records as they finish.

    Bad input never stops the batch: it becomes a ``bad-input`` record. A worker
    that dies or overruns the watchdog gives a ``crash``/``timeout`` record.
    """
    order = schedule(paths, options.jobs)
    # the workers grow at once: each may use its share of the memory free at the start
    # (a maze's K is refused by it), never more than is free when its instance is read
    free = available_memory()
    workers = min(options.jobs, len(paths))  # (run_pool starts no more: review 21 #2)
    share = None if free is None or workers <= 1 else free // workers

    def work(task: int) -> dict[str, Any]:
        path = paths[order[task]]
        absolute = None if path == "-" else os.path.abspath(path)
        now = available_memory()
        memory = share if now is None else now if share is None else min(now, share)
        try:
            instance = load_instance(
                path,
                encoding=options.encoding,
                maze_path=options.maze_path,
                strict=options.strict,
                data=stdin_data if path == "-" else None,
                maze_data=options.maze_data,
                solvers=options.check.solvers,
                memory=memory,
            )
        except FormatError as exc:
            return bad_input_record(display_name(path), absolute, str(exc), options.check)
        return check_instance(instance, options.check)

    def lost(task: int, kind: str, reason: str) -> dict[str, Any]:
        path = paths[order[task]]
        absolute = None if path == "-" else os.path.abspath(path)
        return bad_input_record(display_name(path), absolute, reason, options.check, kind)

    results = run_pool(len(paths), work, lost, jobs=options.jobs, watchdog=options.watchdog())
    try:
        for _index, record in results:
            yield record
    finally:
        results.close()


def pending_paths(
    paths: Iterable[str],
    previous: Iterable[dict[str, Any]],
    solvers: Sequence[str],
    seed: int = 0,
    timeout: float | None = None,
) -> list[str]:
    """The paths whose instance has no record (for these solvers and seed) among ``previous``,
    or whose last record has a run that timed out under a shorter deadline than ``timeout``
    (resuming with a longer ``--timeout`` is how a batch's timeouts get settled)."""
    latest = {record_key(record): record for record in previous}
    pending = []
    for path in paths:
        record = latest.get(instance_key(path, solvers, seed))
        if record is None or (timeout is not None and _timed_out_sooner(record, timeout)):
            pending.append(path)
    return pending


def _timed_out_sooner(record: dict[str, Any], timeout: float) -> bool:
    """Whether a run of ``record`` timed out under a deadline shorter than ``timeout``."""
    recorded = record.get("timeout")
    if not isinstance(recorded, (int, float)) or recorded >= timeout:
        return False
    return any(run.get("status") == "timeout" for run in record["runs"].values())


def latest_records(
    records: Iterable[dict[str, Any]],
    paths: Sequence[str],
    solvers: Sequence[str],
    seed: int = 0,
) -> list[dict[str, Any]]:
    """The last record of each of ``paths`` (checked by ``solvers`` with ``seed``), in the
    order of ``paths``."""
    by_key = {record_key(record): record for record in records}
    out = []
    for path in paths:
        record = by_key.get(instance_key(path, solvers, seed))
        if record is not None:
            out.append(record)
    return out


def read_stdin_once(paths: Sequence[str]) -> bytes | None:
    """Standard input's bytes when ``-`` is among ``paths`` (workers cannot read it)."""
    return read_bytes("-") if "-" in paths else None
