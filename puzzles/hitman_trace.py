"""Recorded Hitman phase-1 traces (JSON lines) and what their observations determine.

A trace file holds one JSON object per line, as ``hitman_phase1_traces.jsonl``:
``{"map": NAME, "start": STATUS, "steps": [{"action": A, "status": STATUS}, …], …}``
with statuses in the referee's shape (cells as [x, y], contents as enum names).
Blank lines are skipped. Every mistake is a `FormatError` naming the file and line.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from formats.errors import FormatError, number_too_long
from formats.streams import display_name, read_text
from puzzles.hitman_sat import Inconsistent, KnowledgeBase, ObservationError
from puzzles.loader import did_you_mean
from puzzles.sourcemap import written

STATUS_KEYS = ("position", "orientation", "vision", "hear", "penalties", "m", "n")
"""The keys every status of a trace needs."""
STEP_KEYS = ("status", *STATUS_KEYS)
"""The keys the status after an action needs: also "status" ("OK", "Err: invalid move")."""
START_NUMBERS = (("m", 1), ("n", 1), ("guard_count", 0), ("civil_count", 0))
"""The start status's grid size and counts, with their least values."""


@dataclass
class Trace:
    """One recorded run: its map name (may be None), start status and (action, status) steps."""

    file: str
    line: int
    map_name: str | None
    kind: str | None
    start: dict[str, Any]
    steps: list[tuple[str, dict[str, Any]]]


@dataclass
class Replay:
    """What a trace's observations determine: the knowledge base after all of them."""

    trace: Trace
    kb: KnowledgeBase = field(repr=False)

    @property
    def seen(self) -> set:
        """Cells some vision of the trace showed."""
        return set(self.kb.seen)

    @property
    def deduced(self) -> set:
        """Cells determined without being seen."""
        return set(self.kb.known) - self.seen


TRACE_KEYS = ("map", "kind", "seed", "referee_version", "start", "steps", "end_phase1",
              "send_content", "send_content_result")  # fmt: skip
"""The keys of a trace line (what the course referee's recorder writes)."""


def load_traces(path: str | os.PathLike[str]) -> list[Trace]:
    """Every trace of a JSON-lines file (``-`` = stdin)."""
    name = display_name(path)
    traces = []
    for number, text in enumerate(read_text(path).splitlines(), start=1):
        if text.strip():
            traces.append(parse_trace(text, name, number))
    if not traces:
        raise FormatError(name, None, "holds no trace (one JSON object per line)")
    return traces


def parse_trace(text: str, file: str, line: int) -> Trace:
    """One trace line."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(file, line, f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise FormatError(file, line, "invalid JSON: nested too deeply") from None
    except ValueError as exc:  # int()'s digit limit (JSONDecodeError is caught above)
        error = number_too_long(exc, text, file, "invalid JSON", line)
        if error is None:
            raise
        raise error from None
    if not isinstance(raw, dict):
        raise FormatError(file, line, "a trace must be a JSON object")
    unknown = next((key for key in raw if key not in TRACE_KEYS), None)
    if unknown is not None:  # (a typo must not pass as a run of no steps: audit 22-A #4)
        raise FormatError(file, line, f"unknown key {unknown!r}{did_you_mean(unknown, TRACE_KEYS)}"
                          f" (a trace holds {', '.join(TRACE_KEYS)})")  # fmt: skip
    start = raw.get("start")
    steps = raw.get("steps")
    if not isinstance(start, dict) or any(key not in start for key in STATUS_KEYS):
        raise FormatError(file, line, f"'start' must be a status with {', '.join(STATUS_KEYS)}")
    for key, least in START_NUMBERS:
        if key not in start:
            raise FormatError(file, line, f"'start' needs {key!r} (an integer ≥ {least})")
        value = start[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise FormatError(
                file, line, f"'start': {key!r} must be an integer ≥ {least}, not {written(value)}"
            )
    if steps is None:
        raise FormatError(file, line, "'steps' is missing (the trace's steps; [] for none)")
    if not isinstance(steps, list):
        raise FormatError(file, line, "'steps' must be a list")
    parsed = []
    for index, step in enumerate(steps, start=1):
        status = step.get("status") if isinstance(step, dict) else None
        if not isinstance(status, dict):
            raise FormatError(
                file,
                line,
                f"step {index}: needs an 'action' and a 'status' with {', '.join(STEP_KEYS)}",
            )
        missing = [key for key in STEP_KEYS if key not in status]
        if missing:
            raise FormatError(
                file,
                line,
                f"step {index}: the status has no {', '.join(map(repr, missing))}"
                f" (a step's status needs {', '.join(STEP_KEYS)})",
            )
        parsed.append((step.get("action"), status))
    map_name = raw.get("map")
    return Trace(
        file, line, map_name if isinstance(map_name, str) else None, raw.get("kind"), start, parsed
    )


def replay(trace: Trace) -> Replay:
    """Add every observation of ``trace`` to a fresh knowledge base and deduce.

    Raises `FormatError` (the trace's file and line) for a status the rules
    cannot produce or observations that contradict each other.
    """
    start = trace.start
    try:
        kb = KnowledgeBase(start["m"], start["n"], start["guard_count"], start["civil_count"])
    except (KeyError, TypeError, ValueError) as exc:
        raise FormatError(
            trace.file, trace.line, f"'start' has a bad grid or counts: {exc}"
        ) from None
    where = "start"
    try:
        kb.observe(start)
        previous = start
        for index, (action, status) in enumerate(trace.steps, start=1):
            where = f"step {index}"
            kb.observe(status, previous=previous, action=action)
            previous = status
        kb.deduce()
    except (ObservationError, TypeError, KeyError) as exc:
        raise FormatError(trace.file, trace.line, f"{where}: {exc}") from None
    except Inconsistent:
        step = first_contradiction(trace)
        where = "start" if step == 0 else f"step {step}"
        raise FormatError(
            trace.file,
            trace.line,
            f"{where}: no map fits the observations up to here (the knowledge base is"
            " unsatisfiable)",
        ) from None
    return Replay(trace, kb)


def first_contradiction(trace: Trace) -> int:
    """The first step (0: the start status) after which no map fits the observations of a
    trace whose observations, all together, contradict the rules. One satisfiability
    check per step, on a fresh knowledge base: only asked once a replay has failed."""
    start = trace.start
    kb = KnowledgeBase(start["m"], start["n"], start["guard_count"], start["civil_count"])
    kb.observe(start)
    if not kb.consistent():
        return 0
    previous = start
    for index, (action, status) in enumerate(trace.steps, start=1):
        kb.observe(status, previous=previous, action=action)
        if not kb.consistent():
            return index
        previous = status
    return len(trace.steps)
