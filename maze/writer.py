"""Writing a :class:`~maze.model.Maze` back in the front-end format (what the generator emits)."""

from __future__ import annotations

from maze.model import Maze


def maze_text(maze: Maze) -> str:
    """The maze as front-end input text: nodes, treasures, K, then one line per node.

    Every declared node gets a line (``X TREASURES NEXT`` when it has neither),
    so reading the text back gives the same maze without warnings.

    >>> from maze.model import Maze
    >>> maze = Maze(["START", "A"], ["GOLD"], 1, {"A": ["GOLD"]}, {"START": ["A"]})
    >>> print(maze_text(maze), end="")
    START A
    GOLD
    1
    START TREASURES NEXT A
    A TREASURES GOLD NEXT
    """
    lines = [" ".join(maze.nodes), " ".join(maze.treasures), str(maze.steps)]
    for node in maze.nodes:
        words = [node, "TREASURES", *maze.treasures_of(node), "NEXT", *maze.exits_of(node)]
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n"
