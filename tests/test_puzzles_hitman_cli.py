"""`satkit puzzle hitman` through click: report, JSON, exit codes, errors, CNF, replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_terminal import FakeTerminal
from hitman_data import MAPS, TRACES, needs_data

import puzzles.cli as cli
from formats.dimacs import read_dimacs

pytestmark = needs_data


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli.puzzle_group, ["hitman", *map(str, args)], input=stdin)


def test_default_world_report() -> None:
    result = run(MAPS, "--map", "default_world")
    assert result.exit_code == 10, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Hitman phase 1 on default_world: 7 wide x 6 high, 2 guards, 3 civilians"
    assert lines[2] == "5  .   .   .   S   Gv+ #   #"
    assert lines[7] == "0  .   .   #   #   .   P   ."
    assert lines[9].startswith("Codes: . EMPTY, # WALL, G^ GUARD_N")
    assert "Penalties: 65 (60 for actions, 5 for being seen by guards)" in lines
    assert "Score: 19 (at most 2·m·n = 84)" in lines
    assert "Cells: 41 seen, 1 deduced, 0 guessed (of 42)" in lines
    assert lines[-1] == "The map sent is all correct."
    assert any(line.startswith("Actions (60): R M L2 ") for line in lines)
    assert result.stderr == ""


def test_json_report() -> None:
    result = run(MAPS, "--map", "default_world", "--json")
    assert result.exit_code == 10
    report = json.loads(result.stdout)
    assert (report["map"], report["m"], report["n"]) == ("default_world", 6, 7)
    assert (report["seen"], report["deduced"], report["guessed"]) == (41, 1, 0)
    assert (report["action_count"], report["penalties"], report["score"]) == (60, 65, 19)
    assert report["max_score"] == 84 and report["all_correct"] and report["determined"]
    assert report["rows_top_to_bottom"][0] == [
        "EMPTY",
        "EMPTY",
        "EMPTY",
        "SUIT",
        "GUARD_S",
        "WALL",
        "WALL",
    ]
    assert report["deduced_cells"] == [[4, 5]] and report["wrong_cells"] == []
    assert len(report["actions"]) == 60 and report["actions"][0] == "turn_clockwise"


def test_guessed_cells_exit_zero() -> None:
    result = run(MAPS, "--map", "small_map_example_3", "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["guessed"] == 4 and not report["determined"]
    text = run(MAPS, "--map", "small_map_example_3")
    assert text.exit_code == 0 and "4 guessed" in text.stdout and "*" in text.stdout


def test_unknown_map_lists_the_known_names() -> None:
    result = run(MAPS, "--map", "nowhere")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ")
    assert (
        "no map named 'nowhere'" in result.stderr
        and "default_world, big_map_example" in result.stderr
    )


def test_several_maps_without_map_is_a_usage_error() -> None:
    result = run(MAPS)
    assert result.exit_code == 2 and "choose one with --map" in result.stderr


def test_bad_map_file_is_an_error_with_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hitman-maps/1",\n "maps": [1, 2]}\n')
    result = run(bad)
    assert result.exit_code == 1
    assert result.stderr == f'error: {bad}:2: "maps" must be an object holding at least one map\n'
    broken = tmp_path / "broken.json"
    broken.write_text("{\n  oops\n")
    result = run(broken)
    assert result.exit_code == 1 and result.stderr.startswith(f"error: {broken}:2: invalid JSON")


def test_single_map_from_stdin() -> None:
    text = json.dumps(
        {
            "format": "hitman-maps/1",
            "maps": {
                "tiny": {
                    "m": 1,
                    "n": 3,
                    "guard_count": 0,
                    "civil_count": 0,
                    "rows_top_to_bottom": [["EMPTY", "TARGET", "PIANO_WIRE"]],
                }
            },
        }
    )
    result = run("-", "--json", stdin=text)
    assert result.exit_code == 10, result.output
    report = json.loads(result.stdout)
    assert report["rows_top_to_bottom"] == [["EMPTY", "TARGET", "PIANO_WIRE"]]


def test_cnf_is_dimacs_with_names(tmp_path: Path) -> None:
    out = tmp_path / "kb.cnf"
    result = run(MAPS, "--map", "small_map_example_2", "--cnf", out)
    assert result.exit_code == 10
    assert result.stderr == f"CNF written to {out}\n"
    formula = read_dimacs(out)
    assert formula.names[1] == "EMPTY_0_0" and formula.names[13] == "PIANO_WIRE_0_0"
    assert "PERSON_1_2" in formula.names.values()
    assert formula.clauses and all(formula.clauses)
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left


def test_cnf_on_stdout_is_refused() -> None:
    result = run(MAPS, "--map", "default_world", "--cnf", "-")
    assert result.exit_code == 2 and "would mix the CNF" in result.stderr


def test_replay_of_the_scripted_trace() -> None:
    result = run(MAPS, "--replay", TRACES)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        f"Replay of {TRACES} trace 1 (line 1): map default_world, 7 wide x 6 high"
    )
    assert "Every determined cell agrees with map default_world." in lines
    report = json.loads(run(MAPS, "--replay", TRACES, "--json", "--index", "9").stdout)
    assert report["map"] == "small_map_example" and report["checked_against"] == "small_map_example"
    assert report["unknown"] == 0 and report["determined"] and report["agrees"]
    assert run(MAPS, "--replay", TRACES, "--index", "9").exit_code == 10


def test_a_replay_that_checks_nothing_does_not_exit_10(tmp_path: Path) -> None:
    # audit 19-G #5: a trace naming a map the file lacks (or none) was not checked, yet
    # exited 10, which --help defines as "every cell was determined and is right"
    trace = json.loads([line for line in TRACES.read_text().splitlines() if line.strip()][8])
    assert trace["map"] == "small_map_example"
    path = tmp_path / "t.jsonl"
    trace["map"] = "small_map_exampel"
    path.write_text(json.dumps(trace) + "\n")
    result = run(MAPS, "--replay", path)
    assert result.exit_code == 0, result.output
    assert f"No map named 'small_map_exampel' in {MAPS}: not checked." in result.stdout
    report = json.loads(run(MAPS, "--replay", path, "--json").stdout)
    assert (report["determined"], report["checked_against"], report["agrees"]) == (
        True,
        None,
        None,
    )
    del trace["map"]
    path.write_text(json.dumps(trace) + "\n")
    result = run(MAPS, "--replay", path)
    assert result.exit_code == 0, result.output
    assert "No map to check against (the trace names no map): not checked." in result.stdout
    assert "None" not in result.stdout
    checked = run(MAPS, "--replay", path, "--map", "small_map_example")
    assert checked.exit_code == 10, checked.output
    assert "Every determined cell agrees with map small_map_example." in checked.stdout


def test_replay_against_the_wrong_map_and_bad_traces(tmp_path: Path) -> None:
    result = run(MAPS, "--replay", TRACES, "--map", "facile_2")
    assert result.exit_code == 1 and "not a trace of this map" in result.stderr
    assert result.stderr.startswith(f"error: {TRACES}:1: ")
    lines = TRACES.read_text().splitlines()
    trace = json.loads(lines[0])
    trace["steps"][3]["status"]["penalties"] += 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n" + json.dumps(trace) + "\n")
    result = run(MAPS, "--replay", bad)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {bad}:2: step 4: a penalty increase of 3")
    bad.write_text("{}\n")
    assert run(MAPS, "--replay", bad).stderr.startswith(f"error: {bad}:1: 'start' must be")
    bad.write_text("\n" + "[" * 100_000 + "]" * 100_000 + "\n")  # RecursionError (audit 16-B)
    result = run(MAPS, "--replay", bad)
    assert result.exit_code == 1
    assert result.stderr == f"error: {bad}:2: invalid JSON: nested too deeply\n"
    bad.write_text("\n" + '{"map": ' + "1" * 5000 + "}\n")  # int()'s limit (audit 26-C F2)
    result = run(MAPS, "--replay", bad)
    assert (result.exit_code, result.stderr) == (
        1, f"error: {bad}:2: invalid JSON: a number of 5,000 digits (at most 4,300 are read)\n")
    # a value the file does not hold: bad input, as --map nosuch is (audit 22-A #5)
    beyond = run(MAPS, "--replay", TRACES, "--index", "99")
    assert (beyond.exit_code, beyond.stderr) == (
        1, f"error: {TRACES}: --index 99: the file holds 11 traces\n")
    for key, typo in (("steps", "stepz"), ("map", "mapp")):
        # a typo passed as a run of no steps, "agrees with map default_world" (audit 22-A #4)
        first = TRACES.read_text().splitlines()[0]
        bad.write_text(first.replace(f'"{key}"', f'"{typo}"', 1) + "\n")
        message = f"unknown key {typo!r} (did you mean {key!r}?)"
        result = run(MAPS, "--replay", bad)
        assert result.exit_code == 1 and result.stderr.startswith(f"error: {bad}:1: {message}")
    trace = json.loads(TRACES.read_text().splitlines()[0])
    del trace["steps"]
    bad.write_text(json.dumps(trace) + "\n")
    assert run(MAPS, "--replay", bad).stderr == (
        f"error: {bad}:1: 'steps' is missing (the trace's steps; [] for none)\n")


def test_a_broken_map_does_not_keep_a_user_from_another(tmp_path: Path) -> None:
    # one map with a wrong guard_count refused every map of the file, --map or not
    # (audit 22-A #2)
    document = json.loads(MAPS.read_text())
    broken = dict(document["maps"]["default_world"], guard_count=9)
    document["maps"] = {"broken": broken, "default_world": document["maps"]["default_world"]}
    maps = tmp_path / "mixed.json"
    maps.write_text(json.dumps(document, indent=1))
    assert run(maps, "--map", "default_world").exit_code == 10
    replayed, expected = run(maps, "--replay", TRACES), run(MAPS, "--replay", TRACES)
    assert (replayed.exit_code, replayed.stdout) == (expected.exit_code, expected.stdout)
    refused = run(maps, "--map", "broken")
    assert refused.exit_code == 1 and "guard_count is 9" in refused.stderr
    unknown = run(maps, "--map", "nosuch")  # (not the broken map's error: review 22)
    assert (unknown.exit_code, unknown.stderr) == (1, f"error: {maps}: no map named 'nosuch'; "
                                                   "the known maps are broken, default_world\n")
    trace = json.loads(TRACES.read_text().splitlines()[0])
    trace["map"] = "elsewhere"
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text(json.dumps(trace) + "\n")
    assert "not checked" in run(maps, "--replay", elsewhere).stdout
    trace["map"] = None  # a trace naming no map checks none, broken or not (review 22b #4)
    elsewhere.write_text(json.dumps(trace) + "\n")
    unnamed = run(maps, "--replay", elsewhere)
    assert unnamed.exit_code == 0 and "the trace names no map" in unnamed.stdout


def _start(**changes: object) -> str:
    status = {"m": 2, "n": 2, "guard_count": 0, "civil_count": 0, "position": [0, 0],
              "orientation": "N", "vision": [], "hear": 0, "penalties": 0}  # fmt: skip
    status.update(changes)
    return json.dumps({"map": "x", "start": status, "steps": []}) + "\n"


def test_replay_refuses_a_malformed_vision_entry_and_a_grid_too_big(tmp_path):
    bad = tmp_path / "bad.jsonl"
    for vision in ([[[0, 1]]], [[]], [[[0, 1], "EMPTY", "x"]]):  # IndexError, then silence
        bad.write_text(_start(vision=vision))
        result = run(MAPS, "--replay", bad)
        assert result.exit_code == 1 and "is not a [[x, y], CONTENT] pair" in result.stderr
        assert result.stderr.startswith(f"error: {bad}:1: start: vision entry")
    bad.write_text(_start(m=300, n=300))  # built for minutes in gigabytes before
    result = run(MAPS, "--replay", bad)
    assert result.exit_code == 1
    assert "90,000 cells; the deduction takes at most 2,500" in result.stderr


def test_a_start_with_a_badly_typed_size_or_count_is_a_type_error(tmp_path: Path) -> None:
    # audit 19-G #7: "m": "2" gave "the trace is 3x2 but map tiny is 3x2"; a missing or
    # text guard_count gave Python's KeyError or TypeError text
    bad = tmp_path / "bad.jsonl"
    for changes, message in [
        ({"m": "2"}, "'start': 'm' must be an integer ≥ 1, not '2'"),
        ({"n": 0}, "'start': 'n' must be an integer ≥ 1, not 0"),
        ({"n": True}, "'start': 'n' must be an integer ≥ 1, not true"),
        ({"guard_count": "x"}, "'start': 'guard_count' must be an integer ≥ 0, not 'x'"),
        ({"civil_count": None}, "'start': 'civil_count' must be an integer ≥ 0, not null"),
    ]:
        bad.write_text(_start(**changes))
        for args in ((), ("--map", "default_world")):
            result = run(MAPS, "--replay", bad, *args)
            assert result.exit_code == 1
            assert result.stderr == f"error: {bad}:1: {message}\n"
    document = json.loads(_start())
    del document["start"]["guard_count"]
    bad.write_text(json.dumps(document) + "\n")
    result = run(MAPS, "--replay", bad)
    assert result.stderr == f"error: {bad}:1: 'start' needs 'guard_count' (an integer ≥ 0)\n"


def test_a_step_status_without_its_status_key_says_so(tmp_path: Path) -> None:
    # audit 19-G #7: it said "step 1: 'status'" (a KeyError's text)
    document = json.loads(_start())
    after = dict(document["start"], orientation="E", penalties=1, is_in_guard_range=False)
    document["steps"] = [{"action": "turn_clockwise", "status": after}]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(document) + "\n")
    result = run(MAPS, "--replay", bad)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {bad}:1: step 1: the status has no 'status' (a step's status needs status,"
        " position, orientation, vision, hear, penalties, m, n)\n"
    )
    for key, value, message in [
        ("penalties", None, "step 1: penalties null is not an integer ≥ 0"),
        ("vision", None, "step 1: vision null is not a list of [[x, y], CONTENT] pairs"),
    ]:
        document["steps"][0]["status"] = dict(after, status="OK", **{key: value})
        bad.write_text(json.dumps(document) + "\n")
        assert run(MAPS, "--replay", bad).stderr == f"error: {bad}:1: {message}\n"
    document["steps"][0]["status"] = dict(after, status="OK")
    bad.write_text(json.dumps(document) + "\n")
    assert run(MAPS, "--replay", bad).exit_code == 0  # (the map "x" is not in the file)


def _room(m: int, n: int) -> dict:
    rows = [["EMPTY"] * n for _ in range(m)]
    rows[0][0], rows[0][1] = "TARGET", "PIANO_WIRE"
    return {"m": m, "n": n, "guard_count": 0, "civil_count": 0, "rows_top_to_bottom": rows}


def test_a_map_too_big_is_refused_at_its_line(tmp_path):
    maps = tmp_path / "big.json"
    rows = json.dumps(_room(100, 100)["rows_top_to_bottom"])
    maps.write_text(
        '{"format": "hitman-maps/1",\n "maps": {"huge": {\n "m": 100, "n": 100, "guard_count": 0,'
        f' "civil_count": 0, "rows_top_to_bottom": {rows}}}}}}}\n'
    )
    result = run(maps)
    assert result.exit_code == 1
    # (line 3 gives the size: numbers had no line, and line 2 was named)
    assert result.stderr.startswith(f"error: {maps}:3: map 'huge': a grid of m = 100 by n = 100")


def test_a_big_map_in_the_file_does_not_refuse_the_others(tmp_path):
    # the cell limit is the deduction's, for the map played: one oversized map refused
    # every map of the file (audit 19-E #5)
    document = json.loads(MAPS.read_text())
    document["maps"]["huge"] = _room(50, 51)
    maps = tmp_path / "maps.json"
    maps.write_text(json.dumps(document))
    played = run(maps, "--map", "default_world")
    assert played.exit_code == 10, played.stderr
    assert played.stdout == run(MAPS, "--map", "default_world").stdout
    refused = run(maps, "--map", "huge")
    assert refused.exit_code == 1
    assert "map 'huge': a grid of m = 50 by n = 51 has 2,550 cells" in refused.stderr


def test_maps_and_trace_cannot_both_read_stdin():
    result = run("-", "--replay", "-", stdin=MAPS.read_text())
    assert result.exit_code == 2 and "standard input can be read only once" in result.stderr


def test_ctrl_c_and_sigterm_give_no_answer_and_exit_zero(monkeypatch, tmp_path) -> None:
    # it printed click's bare "Aborted!" and exited 1, the code for bad input
    def stopped(*args, **kwargs):
        raise KeyboardInterrupt  # (SIGTERM arrives as this too: formats.cli)

    monkeypatch.setattr("puzzles.hitman_explore.explore", stopped)  # (puzzles.cli imports
    monkeypatch.setattr("puzzles.hitman_trace.replay", stopped)  # them when hitman runs)
    cnf = tmp_path / "kb.cnf"
    text = run(MAPS, "--map", "default_world", "--cnf", cnf)
    assert (text.exit_code, text.stdout, text.stderr) == (0, "", "interrupted: no answer\n")
    as_json = run(MAPS, "--map", "default_world", "--json")
    assert as_json.exit_code == 0
    assert json.loads(as_json.stdout) == {"map": "default_world", "status": "UNKNOWN"}
    replayed = run(MAPS, "--replay", TRACES)
    assert (replayed.exit_code, replayed.stderr) == (0, "interrupted: no answer\n")
    assert not cnf.exists()


@pytest.mark.parametrize(
    ("phase", "replaying", "known"),  # known: the map named in the JSON by then
    [
        ("puzzles.hitman_world.load_maps", False, "default_world"),  # (--map's)
        ("puzzles.cli._write_hitman_cnf", False, "default_world"),
        ("puzzles.hitman_trace.load_traces", True, None),  # (the trace's: not read yet)
        ("puzzles.cli._write_hitman_cnf", True, "default_world"),
    ],
)
def test_an_interrupt_while_reading_or_writing_is_no_answer_too(
    monkeypatch, tmp_path, phase, replaying, known
) -> None:
    # outside the exploration and the replay it fell to the generic handler: exit 130 and
    # no JSON (audit 27-A #1)
    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(phase, stopped)
    source = ["--replay", str(TRACES)] if replaying else ["--map", "default_world"]
    cnf = tmp_path / "kb.cnf"
    text = run(MAPS, *source, "--cnf", cnf)
    assert (text.exit_code, text.stdout, text.stderr) == (0, "", "interrupted: no answer\n")
    as_json = run(MAPS, *source, "--json")
    assert as_json.exit_code == 0
    assert json.loads(as_json.stdout) == {"map": known, "status": "UNKNOWN"}
    assert not cnf.exists()


def test_a_contradictory_trace_names_the_first_step_no_map_fits(tmp_path: Path) -> None:
    # it said "the observations: the observations contradict the rules", naming no step
    trace = json.loads(TRACES.read_text().splitlines()[0])
    statuses = [trace["start"], *(step["status"] for step in trace["steps"])]
    seen: dict[tuple[int, int], str] = {}
    for index, status in enumerate(statuses):
        repeat = [entry for entry in status["vision"] if tuple(entry[0]) in seen]
        if index > 1 and repeat and repeat[0][1] == "EMPTY":
            repeat[0][1] = "WALL"  # the same cell seen EMPTY before
            break
        seen.update((tuple(cell), content) for cell, content in status["vision"])
    else:
        raise AssertionError("no cell of the trace is seen twice")
    bad = tmp_path / "flip.jsonl"
    bad.write_text(json.dumps(trace) + "\n")
    result = run(MAPS, "--replay", bad)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {bad}:1: step {index}: no map fits the observations up to here"
        " (the knowledge base is unsatisfiable)\n"
    )


def _back_on_a_cell(trace: dict) -> int:
    """The first step (1-based) of ``trace`` whose status stands on a cell that an earlier
    step's stood on."""
    where: set[tuple[int, int]] = set()
    for index, step in enumerate(trace["steps"], start=1):
        cell = tuple(step["status"]["position"])
        if cell in where:
            return index
        where.add(cell)
    raise AssertionError("the trace never stands on a cell twice")


def test_a_trace_that_hears_two_counts_on_one_cell_is_refused_at_the_second(tmp_path) -> None:
    # the second count was dropped, and the replay said every cell agrees (audit 27-A #2)
    trace = json.loads(TRACES.read_text().splitlines()[0])
    second = _back_on_a_cell(trace)
    status = trace["steps"][second - 1]["status"]
    heard = status["hear"]
    status["hear"] = (heard + 1) % 3
    bad = tmp_path / "hear.jsonl"
    bad.write_text(json.dumps(trace) + "\n")
    result = run(MAPS, "--replay", bad)
    cell = tuple(status["position"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: {bad}:1: step {second}: hear {status['hear']} at {cell}, where hear was"
        f" {heard} before (nothing moves in phase 1)\n"
    )


def test_a_trace_whose_penalties_disagree_on_the_guards_watching_a_cell_is_refused(
    tmp_path,
) -> None:
    # a cell paid for as watched by 1 guard at one step and by none at a later one: the
    # later count was dropped (audit 27-A #2)
    trace = json.loads(TRACES.read_text().splitlines()[0])
    steps = trace["steps"]
    second = _back_on_a_cell(trace)
    paid = steps[second - 1]["status"]["penalties"] - steps[second - 2]["status"]["penalties"]
    watching = (paid - 1) // 5
    for step in steps[second - 1 :]:  # one more guard watching there, the rest follows
        step["status"]["penalties"] += 5
    steps[second - 1]["status"]["is_in_guard_range"] = True
    bad = tmp_path / "watch.jsonl"
    bad.write_text(json.dumps(trace) + "\n")
    result = run(MAPS, "--replay", bad)
    cell = tuple(steps[second - 1]["status"]["position"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: {bad}:1: step {second}: the penalty says {watching + 1} guard(s) watch {cell},"
        f" where it said {watching} before (nothing moves in phase 1)\n"
    )


def test_a_map_too_big_to_explore_is_one_error_line(tmp_path: Path) -> None:
    # an empty 20 x 20 room took 100 s and 40 x 40 did not end in 300 s, under a 2,500 cap
    rows = [["EMPTY"] * 16 for _ in range(16)]
    rows[0][:3] = ["TARGET", "SUIT", "PIANO_WIRE"]
    room = {"m": 16, "n": 16, "guard_count": 0, "civil_count": 0, "rows_top_to_bottom": rows}
    maps = tmp_path / "room.json"
    maps.write_text(json.dumps({"format": "hitman-maps/1", "maps": {"room": room}}, indent=1))
    result = run(maps)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(  # (at the map's size, line 5, as other map errors: 22-A #3)
        f"error: {maps}:5: map 'room' has 256 cells; exploring takes at most 225 ("
    )
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("quiet", [False, True])
def test_exploring_shows_progress_at_a_terminal_unless_quiet(monkeypatch, quiet):
    # a 12 x 12 room explored for seconds with nothing on the terminal (audit 26-B F4)
    import sys

    import formats.cli

    monkeypatch.setattr(formats.cli, "PROGRESS_DELAY", 0.001)
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    args = ["hitman", str(MAPS), "--map", "default_world", *(["-q"] if quiet else [])]
    assert cli.puzzle_group.main(args, standalone_mode=False) in (0, 10, 20)
    shown = re.search(
        r"satkit puzzle hitman: exploring default_world: \d+/\d+ cells known, \d+ actions, \d+ s",
        terminal.text,
    )
    assert bool(shown) != quiet
