"""The maze as plain data: declared nodes and treasures, the step count K, treasures and exits.

A :class:`Maze` is what the front-end input describes (seed 002): a directed
graph whose exits are used exactly as listed (``A … NEXT B`` is the move A→B,
not B→A), treasures at nodes, and the number of moves K. Everything else in
the package (encoder, search, validator, generator, renderer) reads this type.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from formats.errors import FormatWarning

START = "START"
"""The node where every walk begins (the assignment fixes the name)."""

NODE_NAME_LIMIT = 5
"""The course's limit on node names (characters); longer names are warned about."""

TREASURE_NAME_LIMIT = 10
"""The course's limit on treasure names (characters)."""


@dataclass
class Maze:
    """A treasure maze.

    - ``nodes``: declared node names, in the order of the nodes line (this order
      numbers the ``At`` atoms).
    - ``treasures``: declared treasure names, in the order of the treasures line
      (this order numbers the ``Has`` atoms).
    - ``steps``: K, the number of moves a walk makes (times 0..K).
    - ``treasures_at``: node -> the treasures found there, as listed.
    - ``exits``: node -> the nodes reachable in one move, as listed (directed).
    - ``name``: where the maze came from (for messages).
    - ``warnings``: irregularities the parser tolerated.

    Nodes without a node line have no treasures and no exits (they are absent
    from, or empty in, the two dicts).

    >>> m = Maze(["START", "A"], ["GOLD"], 1, {"A": ["GOLD"]}, {"START": ["A"]})
    >>> m.suppliers("GOLD"), m.exits_of("A")
    (['A'], [])
    """

    nodes: list[str]
    treasures: list[str]
    steps: int
    treasures_at: dict[str, list[str]] = field(default_factory=dict)
    exits: dict[str, list[str]] = field(default_factory=dict)
    name: str = "<maze>"
    warnings: list[FormatWarning] = field(default_factory=list)

    def exits_of(self, node: str) -> list[str]:
        """The nodes one move away from ``node``, in listed order."""
        return self.exits.get(node, [])

    def treasures_of(self, node: str) -> list[str]:
        """The treasures at ``node``, in listed order."""
        return self.treasures_at.get(node, [])

    def suppliers(self, treasure: str) -> list[str]:
        """The nodes that hold ``treasure``, in node order."""
        return [node for node in self.nodes if treasure in self.treasures_at.get(node, ())]

    def with_steps(self, steps: int) -> Maze:
        """The same maze with another K (used by ``--shortest``)."""
        return replace(self, steps=steps)

    @property
    def edge_count(self) -> int:
        """The number of directed moves (listed exits)."""
        return sum(len(targets) for targets in self.exits.values())

    @property
    def start_treasures(self) -> list[str]:
        """Treasures at START: the encoding makes any of them unsatisfiable (¬Has(T,0))."""
        return list(self.treasures_at.get(START, []))
