"""Checking a path against a maze, independently of any encoding or solver.

A path is valid for a maze with K steps when it starts at START, makes exactly
K moves, each along an exit *as listed* on the node line (exits are directed),
and visits, at times 1..K, a node holding each declared treasure. START must
hold no treasure: the encoding says the player holds nothing at time 0 while
being at START, so such a maze has no valid path at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from maze.model import START, Maze


class InvalidPath(ValueError):
    """A path that is not a valid walk in its maze; ``problems`` lists every reason."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


def path_problems(maze: Maze, path: Sequence[str], steps: int | None = None) -> list[str]:
    """Every reason ``path`` is not a valid walk of ``steps`` moves (default K) in ``maze``.

    An empty list means the path is valid.

    >>> from maze.parser import parse_maze
    >>> text = "START A\\nGOLD\\n2\\nSTART TREASURES NEXT A\\nA TREASURES GOLD NEXT START\\n"
    >>> maze = parse_maze(text)
    >>> path_problems(maze, ["START", "A", "START"])
    []
    >>> path_problems(maze, ["START", "START", "A"])
    ['step 1: no exit from START to START']
    """
    k = maze.steps if steps is None else steps
    if not path:
        return ["the path is empty"]
    problems: list[str] = []
    if len(path) != k + 1:
        problems.append(f"the path makes {len(path) - 1} moves, not K={k}")
    if path[0] != START:
        problems.append(f"the path starts at {path[0]}, not at {START}")
    known = set(maze.nodes)
    for time, node in enumerate(path):
        if node not in known:
            problems.append(f"time {time}: {node!r} is not a node of the maze")
    for time in range(1, len(path)):
        before, after = path[time - 1], path[time]
        if before in known and after in known and after not in maze.exits_of(before):
            problems.append(f"step {time}: no exit from {before} to {after}")
    for treasure in maze.start_treasures:
        problems.append(
            f"treasure {treasure} is at {START}: the encoding forbids holding it at time 0, "
            "so no path is valid"
        )
    collected = {treasure for node in path[1:] for treasure in maze.treasures_of(node)}
    missing = [treasure for treasure in maze.treasures if treasure not in collected]
    if missing:
        problems.append("treasures not collected: " + " ".join(missing))
    return problems


def walk_problems(maze: Maze, path: Sequence[str]) -> list[str]:
    """Every reason ``path`` is not a valid answer for ``maze``: a valid walk of its own
    length, which must not exceed K (seed 002: a path "in at most the given number of
    steps"; `--shortest` answers are shorter).

    >>> from maze.parser import parse_maze
    >>> text = "START A\\nGOLD\\n1\\nSTART TREASURES NEXT A\\nA TREASURES GOLD NEXT START\\n"
    >>> walk_problems(parse_maze(text), ["START", "A", "START", "A"])[0][:53]
    'the path makes 3 moves, more than the K=1 of the maze'
    """
    problems = path_problems(maze, path, len(path) - 1)
    if len(path) - 1 > maze.steps:
        problems.insert(
            0, f"the path makes {len(path) - 1} moves, more than the K={maze.steps} of the maze"
            " (encoded with a larger K? say so with -k)"
        )
    return problems


def validate_path(maze: Maze, path: Sequence[str], steps: int | None = None) -> None:
    """Raise :class:`InvalidPath` unless ``path`` is a valid walk (see :func:`path_problems`)."""
    problems = path_problems(maze, path, steps)
    if problems:
        raise InvalidPath(problems)


def trim_path(maze: Maze, path: Sequence[str]) -> list[str]:
    """``path`` cut at the first time every treasure is held (the whole path if never)."""
    wanted = set(maze.treasures)
    held: set[str] = set()
    for time, node in enumerate(path):
        if time > 0:
            held.update(maze.treasures_of(node))
        if held >= wanted:
            return list(path[: time + 1])
    return list(path)
