"""Where the Hitman tests find seed 004's maps and referee traces (in ../shared, never copied)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"  # as conftest.SHARED
HITMAN = SHARED / "seeds-data" / "BaptisteBuvron__Hitman_AI27"
MAPS = HITMAN / "hitman_maps.json"
TRACES = HITMAN / "hitman_phase1_traces.jsonl"
needs_data = pytest.mark.skipif(
    not MAPS.is_file(), reason=f"{HITMAN} is absent (../shared beside the checkout)"
)


def traces() -> list[dict]:
    """The recorded referee traces, one dict per line (none when ../shared is absent)."""
    if not TRACES.is_file():
        return []
    return [json.loads(line) for line in TRACES.read_text().splitlines() if line.strip()]
