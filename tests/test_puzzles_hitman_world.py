"""The offline Hitman referee: the 11 golden traces, map files, and the rules on small cases."""

from __future__ import annotations

import json

import pytest
from hitman_data import MAPS, needs_data, traces

from formats.errors import FormatError
from puzzles.hitman_world import (
    HC_VALUES,
    HitmanMap,
    Phase1Referee,
    choose_map,
    load_maps,
    parse_maps,
    render_grid,
    status_json,
)


def grid(rows: list[str], guards: int = 0, civils: int = 0) -> HitmanMap:
    """A map from rows of space-separated names, top row first."""
    table = [row.split() for row in rows]
    m, n = len(table), len(table[0])
    cells = {(x, m - 1 - r): table[r][x] for r in range(m) for x in range(n)}
    return HitmanMap("test", m, n, guards, civils, cells)


@needs_data
def test_maps_file_has_ten_maps_with_the_official_default() -> None:
    maps = load_maps(MAPS)
    assert len(maps) == 10
    world = maps["default_world"]
    assert (world.m, world.n, world.guard_count, world.civil_count) == (6, 7, 2, 3)
    assert world.cells[(0, 3)] == "TARGET" and world.cells[(4, 5)] == "GUARD_S"
    assert world.rows_top_to_bottom()[0] == [
        "EMPTY",
        "EMPTY",
        "EMPTY",
        "SUIT",
        "GUARD_S",
        "WALL",
        "WALL",
    ]
    assert HC_VALUES["EMPTY"] == 1 and HC_VALUES["PIANO_WIRE"] == 13 and HC_VALUES["W"] == 17


@needs_data
@pytest.mark.parametrize("trace", traces(), ids=lambda t: f"{t['map']}-{t['seed']}")
def test_golden_trace_is_reproduced_exactly(trace: dict) -> None:
    world = load_maps(MAPS)[trace["map"]]
    referee = Phase1Referee(world)
    assert status_json(referee.start_phase1()) == trace["start"]
    for number, step in enumerate(trace["steps"], start=1):
        assert status_json(referee.act(step["action"])) == step["status"], f"step {number}"
    assert referee.send_content(dict(world.cells)) is trace["send_content_result"]
    ok, message, history, full = referee.end_phase1()
    assert [ok, message, history] == [
        trace["end_phase1"][key] for key in ("ok", "message", "history")
    ]
    assert full == dict(world.cells)


def test_guard_sight_is_blocked_by_the_first_non_empty_cell() -> None:
    world = grid(["GUARD_E EMPTY EMPTY", "GUARD_E SUIT EMPTY", "EMPTY TARGET PIANO_WIRE"], guards=2)
    assert world.sight((0, 2)) == [(1, 2), (2, 2)]
    assert world.sight((0, 1)) == [(1, 1)]  # the suit is seen and blocks
    assert world.watchers((1, 1)) == 1 and world.watchers((2, 1)) == 0
    assert world.watchers((2, 2)) == 1


def test_a_civilian_hides_the_hitman_and_hearing_counts_his_own_cell() -> None:
    world = grid(["GUARD_E CIVIL_N TARGET PIANO_WIRE"], guards=1, civils=1)
    assert world.watchers((1, 0)) == 0
    assert world.hear((1, 0)) == 2 and world.hear((2, 0)) == 2 and world.hear((3, 0)) == 1


def test_hearing_is_capped_at_five() -> None:
    world = grid(
        ["CIVIL_N CIVIL_N CIVIL_N", "CIVIL_N CIVIL_N CIVIL_N", "EMPTY TARGET PIANO_WIRE"], civils=6
    )
    assert world.hear((0, 0)) == 5


def test_moves_turns_penalties_and_scoring() -> None:
    world = grid(["EMPTY GUARD_S", "EMPTY EMPTY", "TARGET PIANO_WIRE"], guards=1)
    referee = Phase1Referee(world)
    start = referee.start_phase1()
    assert (start["position"], start["orientation"], start["vision"]) == (
        (0, 0),
        "N",
        [((0, 1), "EMPTY"), ((0, 2), "EMPTY")],
    )
    assert referee.end_phase1() == (
        False,
        "Err: Cannot end phase1 without guessing the map",
        [],
        {},
    )
    referee.turn_clockwise()
    status = referee.move()  # onto (1, 0), the piano wire, seen by the guard two cells up
    assert status["position"] == (1, 0) and status["penalties"] == 1 + 6
    assert status["is_in_guard_range"] is True
    referee.turn_anti_clockwise()
    status = referee.move()  # (1, 1) is EMPTY; the guard stands on (1, 2)
    assert status["position"] == (1, 1)
    status = referee.move()
    assert status["status"] == "Err: invalid move" and status["position"] == (1, 1)
    assert referee.send_content({(0, 0): "TARGET", (5, 5): "WALL"}) is False
    with pytest.raises(ValueError, match="only send content once"):
        referee.send_content({})
    ok, message, history, _full = referee.end_phase1()
    assert ok and message == f"Your score is {2 - referee.penalties}"
    assert history == ["Turn Clockwise", "Move", "Turn Anti-Clockwise", "Move", "Move"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "invalid JSON"),
        ('{"format": "other", "maps": {}}', 'not a "hitman-maps/1" file'),
        ('{"format": "hitman-maps/1", "maps": {}}', "at least one map"),
        (
            '{"format": "hitman-maps/1", "maps": {"a": {"m": 1, "n": 2, "guard_count": 0,'
            ' "civil_count": 0, "rows_top_to_bottom": [["EMPTY", "TARGET"]]}}}',
            "exactly one PIANO_WIRE",
        ),
        (
            '{"format": "hitman-maps/1", "maps": {"a": {"m": 1, "n": 2, "guard_count": 1,'
            ' "civil_count": 0, "rows_top_to_bottom": [["PIANO_WIRE", "TARGET"]]}}}',
            "guard_count is 1 but the grid holds 0 guards",
        ),
        (
            '{"format": "hitman-maps/1", "maps": {"a": {"m": 1, "n": 2, "guard_count": 0,\n'
            ' "civil_count": 0, "rows_top_to_bottom": [["PIANO_WIRE", "TARGT"]]}}}',
            "unknown content 'TARGT'",
        ),
    ],
)
def test_bad_map_files_are_format_errors(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message) as caught:
        parse_maps(text, "maps.json")
    assert str(caught.value).startswith("maps.json")


@pytest.mark.parametrize(
    ("field", "bad", "message"),
    [
        ("n", "0", "map 'tiny': 'n' must be an integer ≥ 1"),
        ("m", "null", "map 'tiny': 'm' must be an integer ≥ 1"),
        ("civil_count", "-1", "map 'tiny': 'civil_count' must be an integer ≥ 0"),
    ],
)
def test_a_bad_number_in_a_map_names_its_own_line(field: str, bad: str, message: str) -> None:
    # audit 19-G #4: numbers and null carried no line, so the map's own line (4) was named
    lines = [
        "{",
        '  "format": "hitman-maps/1",',
        '  "maps": {',
        '    "tiny": {',
        '      "m": 1,',
        '      "n": 2,',
        '      "guard_count": 0,',
        '      "civil_count": 0,',
        '      "rows_top_to_bottom": [["PIANO_WIRE", "TARGET"]]',
        "    }",
        "  }",
        "}",
    ]
    number = next(i for i, line in enumerate(lines, start=1) if f'"{field}":' in line)
    lines[number - 1] = lines[number - 1].split(":")[0] + f": {bad},"
    with pytest.raises(FormatError) as caught:
        parse_maps("\n".join(lines), "maps.json")
    assert str(caught.value) == f"maps.json:{number}: {message}"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": None}, 'maps.json:1: not a "hitman-maps/1" file: "format" is null'),
        ({"format": 1}, 'maps.json:1: not a "hitman-maps/1" file: "format" is 1'),
        ({"format": "x"}, "maps.json:1: not a \"hitman-maps/1\" file: \"format\" is 'x'"),
        ({}, 'maps.json:1: not a "hitman-maps/1" file: "format" is missing'),
    ],
)
def test_a_wrong_format_is_shown_as_written(change: dict, message: str) -> None:
    # audit 19-G #7: Python's None was shown for null (and for a missing key)
    document = {"maps": {}, **change}
    with pytest.raises(FormatError) as caught:
        parse_maps(json.dumps(document), "maps.json")
    assert str(caught.value) == message


@pytest.mark.parametrize(("content", "shown"), [("null", "null"), ("5", "5"), ("true", "true")])
def test_an_unknown_content_is_shown_as_written(content: str, shown: str) -> None:
    text = (
        '{"format": "hitman-maps/1", "maps": {"a": {"m": 1, "n": 2, "guard_count": 0,'
        f' "civil_count": 0, "rows_top_to_bottom": [["PIANO_WIRE", {content}]]}}}}}}'
    )
    with pytest.raises(FormatError) as caught:
        parse_maps(text, "maps.json")
    assert f"map 'a': unknown content {shown} (one of EMPTY," in str(caught.value)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"guard_count": 2, "row": ["GUARD_N", "PIANO_WIRE", "TARGET"]}, "holds 1 guard"),
        ({"guard_count": 1}, "guard_count is 1 but the grid holds 0 guards"),
        ({"civil_count": 0, "row": ["CIVIL_N", "PIANO_WIRE", "TARGET"]}, "holds 1 civilian"),
        ({"m": 2}, "'rows_top_to_bottom' must list m = 2 rows"),
        ({"n": 1}, "row 0 must hold n = 1 cell"),
    ],
)
def test_map_counts_are_in_the_right_number(changes: dict, message: str) -> None:
    # audit 19-G #7: "the grid holds 1 guards"
    row = changes.pop("row", ["EMPTY", "PIANO_WIRE", "TARGET"])
    raw = {"m": 1, "n": 3, "guard_count": 0, "civil_count": 0, "rows_top_to_bottom": [row]}
    raw.update(changes)
    document = {"format": "hitman-maps/1", "maps": {"a": raw}}
    with pytest.raises(FormatError) as caught:
        parse_maps(json.dumps(document), "maps.json")
    assert str(caught.value).endswith(message)


def test_unknown_map_name_lists_the_known_ones() -> None:
    text = (
        '{"format": "hitman-maps/1", "maps": {"one": {"m": 1, "n": 2, "guard_count": 0,'
        ' "civil_count": 0, "rows_top_to_bottom": [["PIANO_WIRE", "TARGET"]]}}}'
    )
    maps = parse_maps(text, "maps.json")
    assert choose_map(maps, None, "maps.json").name == "one"
    with pytest.raises(FormatError, match="no map named 'two'; the known maps are one"):
        choose_map(maps, "two", "maps.json")


def test_render_grid_puts_the_top_row_first() -> None:
    world = grid(["WALL GUARD_W", "TARGET PIANO_WIRE"], guards=1)
    assert render_grid(2, 2, world.cells, {(0, 0): "+"}) == "1  #   G<\n0  T+  P\n   0   1"
