"""The Hitman phase-1 world offline: maps from "hitman-maps/1" files and a referee simulator.

The rules are the course referee's (UTC IA02 "Hitman", v0.7.1/v1.0.0) exactly as
``../shared/seeds-data/BaptisteBuvron__Hitman_AI27/RULES.md`` (§2.2–2.3) states them:

- cell (x, y), x in [0, n) left to right, y in [0, m) bottom to top; N = +y,
  E = +x; the hitman starts at (0, 0) facing N; the world never changes;
- every action costs 1, plus 5 per guard watching the hitman's cell after it
  (the current cell for turns and invalid moves, the new one for valid moves);
- a guard sees 2 cells ahead, the hitman 3; both scans stop after the first
  cell that is not EMPTY; a hitman standing on a civilian is hidden (k = 0);
- hearing counts guards and civilians in the 5×5 square around the hitman,
  clipped to the grid and including his own cell, capped at 5;
- ``send_content`` scores 2 per correct cell; the phase-1 score is that minus
  the penalties.

Contents and orientations are the referee's enum *names* (``"GUARD_E"``, ``"N"``),
as in the map and trace files; `HC_VALUES` gives the enum numbers.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from formats.errors import FormatError, count
from formats.streams import display_name, read_text
from puzzles.sourcemap import decode_json, written

MAPS_FORMAT = "hitman-maps/1"

CONTENTS = (
    "EMPTY",
    "WALL",
    "GUARD_N",
    "GUARD_E",
    "GUARD_S",
    "GUARD_W",
    "CIVIL_N",
    "CIVIL_E",
    "CIVIL_S",
    "CIVIL_W",
    "TARGET",
    "SUIT",
    "PIANO_WIRE",
)
"""The 13 cell contents, in the referee's enum order."""

ORIENTATIONS = ("N", "E", "S", "W")
"""Facing directions in clockwise order."""

HC_VALUES = {name: value for value, name in enumerate((*CONTENTS, *ORIENTATIONS), start=1)}
"""The referee's ``HC`` enum: name -> number (EMPTY = 1 … PIANO_WIRE = 13, N = 14 … W = 17)."""

STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
"""The unit vector of each orientation."""

GUARDS = tuple(f"GUARD_{o}" for o in ORIENTATIONS)
CIVILS = tuple(f"CIVIL_{o}" for o in ORIENTATIONS)
PERSONS = GUARDS + CIVILS
BLOCKING_MOVES = ("WALL", *GUARDS)
"""Contents the hitman cannot move into."""

ACTIONS = ("move", "turn_clockwise", "turn_anti_clockwise")
HISTORY_NAMES = {
    "move": "Move",
    "turn_clockwise": "Turn Clockwise",
    "turn_anti_clockwise": "Turn Anti-Clockwise",
}
GUARD_SIGHT = 2
HITMAN_SIGHT = 3
HEARING_RADIUS = 2
HEARING_CAP = 5
PENALTY_PER_GUARD = 5
MAX_CELLS = 2_500
"""The largest grid (m·n) the deduction takes: its knowledge base grows faster than the
grid (a 40 x 40 grid takes 1 s to build); the course's maps have at most 80 cells."""

Cell = tuple[int, int]


def facing(content: str) -> str | None:
    """The orientation of a guard or civilian content (``"GUARD_E"`` -> ``"E"``), else None."""
    if content in PERSONS:
        return content[-1]
    return None


def rotate(orientation: str, clockwise: bool) -> str:
    """The orientation after a quarter turn."""
    index = ORIENTATIONS.index(orientation)
    return ORIENTATIONS[(index + (1 if clockwise else -1)) % 4]


def ahead(cell: Cell, orientation: str, distance: int = 1) -> Cell:
    """The cell ``distance`` steps from ``cell`` along ``orientation``."""
    dx, dy = STEP[orientation]
    return (cell[0] + distance * dx, cell[1] + distance * dy)


@dataclass(frozen=True)
class HitmanMap:
    """A phase-1 map: size, the announced counts, and the content of every cell.

    ``m`` is the height (rows), ``n`` the width (columns); ``cells`` maps every
    (x, y) of the grid to a content name. ``line``: where the map's size is given in its
    file, for messages (None when unknown).
    """

    name: str
    m: int
    n: int
    guard_count: int
    civil_count: int
    cells: Mapping[Cell, str] = field(repr=False)
    line: int | None = field(default=None, repr=False, compare=False)

    def inside(self, cell: Cell) -> bool:
        """Whether ``cell`` is on the grid."""
        return 0 <= cell[0] < self.n and 0 <= cell[1] < self.m

    def all_cells(self) -> list[Cell]:
        """Every cell, x-major then y: (0,0), (0,1), …, (n−1, m−1)."""
        return [(x, y) for x in range(self.n) for y in range(self.m)]

    def rows_top_to_bottom(self) -> list[list[str]]:
        """The grid as the map files write it: top row (y = m−1) first."""
        return [[self.cells[(x, y)] for x in range(self.n)] for y in reversed(range(self.m))]

    def sight(self, guard: Cell) -> list[Cell]:
        """The cells the guard standing at ``guard`` sees (empty if no guard is there)."""
        direction = facing(self.cells[guard])
        if direction is None or self.cells[guard] not in GUARDS:
            return []
        return self._scan(guard, direction, GUARD_SIGHT)

    def vision(self, cell: Cell, orientation: str) -> list[tuple[Cell, str]]:
        """What the hitman at ``cell`` facing ``orientation`` sees: up to 3 (cell, content)."""
        return [(seen, self.cells[seen]) for seen in self._scan(cell, orientation, HITMAN_SIGHT)]

    def _scan(self, origin: Cell, orientation: str, reach: int) -> list[Cell]:
        """Cells ahead of ``origin``, each included, stopping after the first non-EMPTY one."""
        seen = []
        for distance in range(1, reach + 1):
            cell = ahead(origin, orientation, distance)
            if not self.inside(cell):
                break
            seen.append(cell)
            if self.cells[cell] != "EMPTY":
                break
        return seen

    def watchers(self, cell: Cell) -> int:
        """k(cell): how many guards see ``cell`` (0 when it is a civilian's: he hides there)."""
        if self.cells.get(cell) in CIVILS:
            return 0
        count = 0
        for orientation in ORIENTATIONS:
            for distance in range(1, GUARD_SIGHT + 1):
                guard = ahead(cell, orientation, -distance)
                looks_here = self.inside(guard) and self.cells[guard] == f"GUARD_{orientation}"
                if looks_here and cell in self.sight(guard):
                    count += 1
        return count

    def hear(self, cell: Cell) -> int:
        """Guards and civilians within 2 cells (both axes) of ``cell``, own cell included; ≤ 5."""
        return min(
            HEARING_CAP, len([p for p in hearing_window(self, cell) if self.cells[p] in PERSONS])
        )


def hearing_window(world: HitmanMap | Any, cell: Cell) -> list[Cell]:
    """The 5×5 square around ``cell`` clipped to the grid (any object with ``m``, ``n``)."""
    x0, y0 = cell
    r = HEARING_RADIUS
    return [
        (x, y)
        for x in range(max(0, x0 - r), min(world.n, x0 + r + 1))
        for y in range(max(0, y0 - r), min(world.m, y0 + r + 1))
    ]


# --------------------------------------------------------------------------- map files


class NoSuchMap(FormatError):
    """The map asked for (`load_maps`'s ``only``) is not in the file."""


def load_maps(path: str | os.PathLike[str], only: str | None = None) -> dict[str, HitmanMap]:
    """Every map of a "hitman-maps/1" JSON file (``-`` = stdin), in file order; or, with
    ``only``, that map alone (the others are not checked: a broken one does not keep a
    user from the map chosen), and `NoSuchMap` naming the maps there when it is absent.

    Raises `FormatError` (``FILE:LINE: message``) for a file that is not such a
    file, or a map that breaks the subject's rules the knowledge base relies on
    (exactly one TARGET and one PIANO_WIRE, at most one SUIT, the announced
    guard and civilian counts).
    """
    name = display_name(path)
    return parse_maps(read_text(path), name, only)


def parse_maps(text: str, name: str = "<string>", only: str | None = None) -> dict[str, HitmanMap]:
    """`load_maps` on the text of a file."""
    document, where = decode_json(text, name)

    def error(path: tuple[Any, ...], message: str) -> FormatError:
        return FormatError(name, where.line(path), message)

    if not isinstance(document, dict):
        raise error((), f'not a "{MAPS_FORMAT}" file: the top level is not a JSON object')
    if document.get("format") != MAPS_FORMAT:
        found = f"is {written(document['format'])}" if "format" in document else "is missing"
        raise error(("format",), f'not a "{MAPS_FORMAT}" file: "format" {found}')
    maps = document.get("maps")
    if not isinstance(maps, dict) or not maps:
        raise error(("maps",), '"maps" must be an object holding at least one map')
    if only is not None and only not in maps:  # (said before any map is checked)
        raise NoSuchMap(name, None, _unknown_map(only, maps))
    chosen = list(maps) if only is None else [only]
    return {key: _read_map(key, maps[key], error, where.line(("maps", key, "m"))) for key in chosen}


def too_many_cells(m: int, n: int) -> str:
    """The refusal of a grid above `MAX_CELLS`."""
    return (
        f"a grid of m = {m} by n = {n} has {m * n:,} cells; the deduction takes at most "
        f"{MAX_CELLS:,} (the course's maps have at most 80)"
    )


def _read_map(key: str, raw: Any, error: Any, line: int | None) -> HitmanMap:
    path: tuple[Any, ...] = ("maps", key)
    if not isinstance(raw, dict):
        raise error(path, f"map {key!r} is not a JSON object")
    numbers = {}
    for field_name, least in (("m", 1), ("n", 1), ("guard_count", 0), ("civil_count", 0)):
        value = raw.get(field_name)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise error(
                (*path, field_name), f"map {key!r}: {field_name!r} must be an integer ≥ {least}"
            )
        numbers[field_name] = value
    m, n = numbers["m"], numbers["n"]
    rows = raw.get("rows_top_to_bottom")
    if not isinstance(rows, list) or len(rows) != m:
        raise error(
            (*path, "rows_top_to_bottom"),
            f"map {key!r}: 'rows_top_to_bottom' must list m = {count(m, 'row')}",
        )
    cells: dict[Cell, str] = {}
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != n:
            raise error(
                (*path, "rows_top_to_bottom", r),
                f"map {key!r}: row {r} must hold n = {count(n, 'cell')}",
            )
        for x, content in enumerate(row):
            if content not in CONTENTS:
                raise error(
                    (*path, "rows_top_to_bottom", r, x),
                    f"map {key!r}: unknown content {written(content)}"
                    f" (one of {', '.join(CONTENTS)})",
                )
            cells[(x, m - 1 - r)] = str(content)
    world = HitmanMap(key, m, n, numbers["guard_count"], numbers["civil_count"], cells, line)
    problem = rule_problem(world)
    if problem:
        raise error(path, f"map {key!r}: {problem}")
    return world


def rule_problem(world: HitmanMap) -> str | None:
    """What makes ``world`` break the subject's rules the knowledge base assumes (None if fine)."""
    tally = {content: 0 for content in CONTENTS}
    for content in world.cells.values():
        tally[content] += 1
    guards = sum(tally[g] for g in GUARDS)
    civils = sum(tally[c] for c in CIVILS)
    if guards != world.guard_count:
        return f"guard_count is {world.guard_count} but the grid holds {count(guards, 'guard')}"
    if civils != world.civil_count:
        return (
            f"civil_count is {world.civil_count} but the grid holds {count(civils, 'civilian')}"
        )
    for unique in ("TARGET", "PIANO_WIRE"):
        if tally[unique] != 1:
            return f"the grid must hold exactly one {unique} (it holds {tally[unique]})"
    if tally["SUIT"] > 1:
        return f"the grid may hold at most one SUIT (it holds {tally['SUIT']})"
    return None


def choose_map(maps: Mapping[str, HitmanMap], wanted: str | None, file: str) -> HitmanMap:
    """The map named ``wanted`` (or the only one when None); FormatError naming the known
    maps, or refusing the chosen map when its grid is above `MAX_CELLS` (the limit is
    the deduction's: other maps of the file may be bigger)."""
    if wanted is None:
        if len(maps) != 1:
            raise FormatError(
                file, None, f"the file holds {len(maps)} maps; choose one: {known_names(maps)}"
            )
        wanted = next(iter(maps))
    if wanted not in maps:
        raise FormatError(
            file, None, _unknown_map(wanted, maps)
        )
    world = maps[wanted]
    if world.m * world.n > MAX_CELLS:
        raise FormatError(file, world.line, f"map {wanted!r}: {too_many_cells(world.m, world.n)}")
    return world


def _unknown_map(wanted: str, maps: Mapping[str, Any]) -> str:
    """The refusal of a map name the file does not hold."""
    return f"no map named {wanted!r}; the known maps are {known_names(maps)}"


def known_names(maps: Mapping[str, HitmanMap]) -> str:
    """The map names, comma-separated, in file order."""
    return ", ".join(maps)


# --------------------------------------------------------------------------- the referee


class Phase1Referee:
    """The referee's phase-1 API on an offline map: same methods, same status dicts.

    Statuses hold tuples for cells and names for contents and orientations
    (``"orientation": "N"``, ``"vision": [((0, 1), "EMPTY"), …]``); `status_json`
    turns one into the JSON shape of the trace files.

    >>> world = HitmanMap("tiny", 1, 2, 0, 0, {(0, 0): "EMPTY", (1, 0): "WALL"})
    >>> referee = Phase1Referee(world)
    >>> referee.start_phase1()["vision"]
    []
    >>> referee.turn_clockwise()["vision"], referee.move()["status"]
    ([((1, 0), 'WALL')], 'Err: invalid move')
    """

    def __init__(self, world: HitmanMap) -> None:
        self.world = world
        self.position: Cell = (0, 0)
        self.orientation = "N"
        self.penalties = 0
        self.in_guard_range = False
        self.history: list[str] = []
        self.guess_score = 0
        self.guessed = False

    def start_phase1(self) -> dict[str, Any]:
        """The first status (``is_in_guard_range`` is always False here, as the referee's)."""
        return self._status("OK")

    def move(self) -> dict[str, Any]:
        """Step forward; into a wall, a guard or off the grid it is an invalid move."""
        self.history.append(HISTORY_NAMES["move"])
        target = ahead(self.position, self.orientation)
        if not self.world.inside(target) or self.world.cells[target] in BLOCKING_MOVES:
            self._charge(self.position)
            return self._status("Err: invalid move")
        self.position = target
        self._charge(target)
        return self._status("OK")

    def turn_clockwise(self) -> dict[str, Any]:
        """A quarter turn to the right (charged at the current cell, before turning)."""
        return self._turn("turn_clockwise", clockwise=True)

    def turn_anti_clockwise(self) -> dict[str, Any]:
        """A quarter turn to the left."""
        return self._turn("turn_anti_clockwise", clockwise=False)

    def act(self, action: str) -> dict[str, Any]:
        """Run one action by its API name (``"move"``, ``"turn_clockwise"``, …)."""
        if action not in ACTIONS:
            raise ValueError(f"unknown action {action!r}; one of {', '.join(ACTIONS)}")
        return getattr(self, action)()

    def send_content(self, map_info: Mapping[Cell, str]) -> bool:
        """Score a guess: 2 points per correct cell; True iff every cell is there and right."""
        if self.guessed:
            raise ValueError("Err: cand only send content once")
        self.guessed = True
        all_right = all(cell in map_info for cell in self.world.cells)
        for cell, content in map_info.items():
            if self.world.inside(cell) and self.world.cells[cell] == content:
                self.guess_score += 2
            else:
                all_right = False
        return all_right

    def end_phase1(self) -> tuple[bool, str, list[str], dict[Cell, str]]:
        """``(True, "Your score is N", history, full map)`` after a guess, else the error tuple."""
        if not self.guessed:
            return False, "Err: Cannot end phase1 without guessing the map", [], {}
        score = self.guess_score - self.penalties
        return True, f"Your score is {score}", list(self.history), dict(self.world.cells)

    def _turn(self, action: str, *, clockwise: bool) -> dict[str, Any]:
        self.history.append(HISTORY_NAMES[action])
        self._charge(self.position)
        self.orientation = rotate(self.orientation, clockwise)
        return self._status("OK")

    def _charge(self, cell: Cell) -> None:
        watching = self.world.watchers(cell)
        self.penalties += 1 + PENALTY_PER_GUARD * watching
        self.in_guard_range = watching > 0

    def _status(self, status: str) -> dict[str, Any]:
        return {
            "status": status,
            "phase": 1,
            "guard_count": self.world.guard_count,
            "civil_count": self.world.civil_count,
            "m": self.world.m,
            "n": self.world.n,
            "position": self.position,
            "orientation": self.orientation,
            "vision": self.world.vision(self.position, self.orientation),
            "hear": self.world.hear(self.position),
            "penalties": self.penalties,
            "is_in_guard_range": self.in_guard_range,
        }


def status_json(status: Mapping[str, Any]) -> dict[str, Any]:
    """A status dict in the JSON shape of the trace files (lists instead of tuples)."""
    shaped = dict(status)
    shaped["position"] = list(status["position"])
    shaped["vision"] = [[list(cell), content] for cell, content in status["vision"]]
    return shaped


# --------------------------------------------------------------------------- display

CODES = {
    "EMPTY": ".",
    "WALL": "#",
    "GUARD_N": "G^",
    "GUARD_E": "G>",
    "GUARD_S": "Gv",
    "GUARD_W": "G<",
    "CIVIL_N": "C^",
    "CIVIL_E": "C>",
    "CIVIL_S": "Cv",
    "CIVIL_W": "C<",
    "TARGET": "T",
    "SUIT": "S",
    "PIANO_WIRE": "P",
}
"""One short code per content: G = guard, C = civilian, the arrow is where he faces."""

UNKNOWN_CODE = "?"


def render_grid(
    m: int, n: int, cells: Mapping[Cell, str], marks: Mapping[Cell, str] | None = None
) -> str:
    """The grid as text, top row first, with y labels on the left and x labels below.

    Each cell shows its content's `CODES` entry (``?`` when absent from ``cells``)
    followed by its mark from ``marks``, if any (one character).
    """
    marks = marks or {}
    width = len(str(max(m, n) - 1))
    lines = []
    for y in reversed(range(m)):
        fields = []
        for x in range(n):
            code = CODES[cells[(x, y)]] if (x, y) in cells else UNKNOWN_CODE
            fields.append(f"{code}{marks.get((x, y), '')}".ljust(4))
        lines.append(f"{y:>{width}}  " + "".join(fields).rstrip())
    lines.append(" " * width + "  " + "".join(f"{x:<4}" for x in range(n)).rstrip())
    return "\n".join(lines)
