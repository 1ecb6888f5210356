"""maze.validator: each way a path can be wrong is named; trimming stops at the last treasure."""

from __future__ import annotations

import pytest

from maze.parser import parse_maze
from maze.validator import InvalidPath, path_problems, trim_path, validate_path

# START -> A (GOLD) -> B (WAND) -> START, and A -> START; B is reached one way only.
MAZE = parse_maze(
    "START A B\nGOLD WAND\n3\n"
    "START TREASURES NEXT A\nA TREASURES GOLD NEXT B START\nB TREASURES WAND NEXT START\n",
    "v.txt",
)


def test_valid_path():
    assert path_problems(MAZE, ["START", "A", "B", "START"]) == []
    validate_path(MAZE, ["START", "A", "B", "START"])


@pytest.mark.parametrize(
    ("path", "fragment"),
    [
        ([], "empty"),
        (["START", "A", "B"], "makes 2 moves, not K=3"),
        (["A", "B", "START", "A"], "starts at A"),
        (["START", "A", "Z", "START"], "'Z' is not a node"),
        (["START", "B", "START", "A"], "step 1: no exit from START to B"),
        (["START", "A", "START", "A"], "treasures not collected: WAND"),
    ],
)
def test_each_problem_is_named(path, fragment):
    problems = path_problems(MAZE, path)
    assert any(fragment in problem for problem in problems), problems
    with pytest.raises(InvalidPath) as caught:
        validate_path(MAZE, path)
    assert caught.value.problems == problems


def test_exits_are_directed():
    # B -> START exists, START -> B does not
    assert "step 3: no exit from START to B" in path_problems(MAZE, ["START", "A", "START", "B"])


def test_steps_override():
    assert path_problems(MAZE, ["START", "A", "B"], steps=2) == []


def test_treasure_at_start_invalidates_every_path():
    maze = parse_maze("START A\nGOLD\n1\nSTART TREASURES GOLD NEXT A\nA TREASURES GOLD NEXT\n")
    assert any("at START" in p for p in path_problems(maze, ["START", "A"]))


def test_trim():
    assert trim_path(MAZE, ["START", "A", "B", "START"]) == ["START", "A", "B"]
    assert trim_path(MAZE, ["START", "A", "START", "A"]) == ["START", "A", "START", "A"]
    empty = parse_maze("START A\n\n2\nSTART TREASURES NEXT A\nA TREASURES NEXT START\n")
    assert trim_path(empty, ["START", "A", "START"]) == ["START"]
