"""The reference solver: a layered search over (node, treasures held), no SAT involved.

It gives the answers the encoding defines, so it can check every SAT answer:

- time 0: the player is at START holding nothing (a treasure at START makes
  the maze unsatisfiable, as ¬Has(T,0) and At(START,0) → Has(T,0) clash);
- each of the K moves follows an exit as listed (directed); there is no
  waiting unless a node lists itself as an exit;
- arriving at a node picks up all its treasures; at time K every declared
  treasure must be held.

Layer i holds the states (node, set of treasures) reachable in i moves.
Three prunings keep the layers small without changing the answer: a state is
dropped when some missing treasure is farther (in moves) than the time left,
when the node cannot make the moves left (dead ends), or when the same node
is reached holding a superset of its treasures (dominance; not when counting
walks). Treasure sets are
bit masks; states are ints ``mask * n + node``.
"""

from __future__ import annotations

from collections import deque
from time import monotonic

from maze.model import START, Maze


class SearchLimit(Exception):
    """The layered search ran past its deadline."""


class _Graph:
    """The maze as index lists: successors, treasure masks, distances to treasures."""

    def __init__(self, maze: Maze) -> None:
        self.nodes = list(maze.nodes)
        index = {node: i for i, node in enumerate(self.nodes)}
        bit = {treasure: 1 << j for j, treasure in enumerate(maze.treasures)}
        self.n = len(self.nodes)
        self.full = (1 << len(maze.treasures)) - 1
        self.start = index[START]
        self.succ = [[index[m] for m in maze.exits_of(node)] for node in self.nodes]
        self.mask = [0] * self.n
        for node in self.nodes:
            for treasure in maze.treasures_of(node):
                self.mask[index[node]] |= bit[treasure]
        pred: list[list[int]] = [[] for _ in range(self.n)]
        for v, targets in enumerate(self.succ):
            for w in targets:
                pred[w].append(v)
        self.pred = pred
        # distance[j][v]: fewest moves from v to arrive at (or already be at) a node with treasure j
        self.distance = [self._distances_to(1 << j) for j in range(len(maze.treasures))]
        self.solvable = not self.mask[self.start] and all(
            any(d is not None for d in row) for row in self.distance
        )

    def _distances_to(self, bit: int) -> list[int | None]:
        dist: list[int | None] = [None] * self.n
        queue = deque(v for v in range(self.n) if self.mask[v] & bit)
        for v in queue:
            dist[v] = 0
        while queue:
            w = queue.popleft()
            step = dist[w] + 1  # type: ignore[operator]
            for v in self.pred[w]:
                if dist[v] is None:
                    dist[v] = step
                    queue.append(v)
        return dist

    def slack_ok(self, v: int, mask: int, left: int) -> bool:
        """Can each treasure missing from ``mask`` be reached from ``v`` in ``left`` moves?"""
        missing = self.full & ~mask
        j = 0
        while missing:
            if missing & 1:
                d = self.distance[j][v]
                if d is None or d > left:
                    return False
            missing >>= 1
            j += 1
        return True

    def alive(self, steps: int) -> list[list[bool]]:
        """``alive[r][v]``: from v, ``r`` more moves can be made, for r = 0 up to the first
        row that repeats the one before; that row holds for every larger r (a row only loses
        nodes as r grows, so at most n + 1 rows), whatever ``steps`` is (a K of 10^8 built
        10^8 rows before the search's deadline was ever looked at)."""
        rows = [[True] * self.n]
        for _ in range(steps):
            later = rows[-1]
            row = [any(later[w] for w in targets) for targets in self.succ]
            if row == later:
                break
            rows.append(row)
        return rows


def _layers(
    graph: _Graph, steps: int, *, exact: bool, deadline: float | None = None
) -> tuple[list[dict[int, int]], int | None]:
    """Build the layers; return them and the goal state (or None).

    With ``exact`` the goal is a full mask at time ``steps``; otherwise at the
    first time it occurs (the least K), at most ``steps``. Each layer maps a
    state to its predecessor state. Raises `SearchLimit` once ``time.monotonic()``
    passes ``deadline`` (checked every few thousand expansions).
    """
    n, full, succ, masks = graph.n, graph.full, graph.succ, graph.mask
    alive = graph.alive(steps) if exact else None
    first = graph.start  # mask 0 at START
    layers: list[dict[int, int]] = [{first: -1}]
    if full == 0 and (not exact or steps == 0):
        return layers, first
    for time in range(1, steps + 1):
        left = steps - time
        ok_here = alive[min(left, len(alive) - 1)] if alive is not None else None
        layer: dict[int, int] = {}
        for count, state in enumerate(layers[-1]):
            if deadline is not None and not count & 1023 and monotonic() > deadline:
                raise SearchLimit("the search ran out of time")
            held, v = divmod(state, n)
            for w in succ[v]:
                if ok_here is not None and not ok_here[w]:
                    continue
                mask = held | masks[w]
                nxt = mask * n + w
                if nxt in layer:
                    continue
                if mask != full and not graph.slack_ok(w, mask, left):
                    continue
                layer[nxt] = state
        layer = _maximal(layer, n, deadline)
        layers.append(layer)
        if not layer:
            return layers, None
        if not exact:
            for state in layer:
                if state // n == full:
                    return layers, state
    if exact:
        for state in layers[-1]:
            if state // n == full:
                return layers, state
    return layers, None


def _maximal(layer: dict[int, int], n: int, deadline: float | None = None) -> dict[int, int]:
    """The layer without dominated states: (v, held) goes when (v, more) is there, more ⊇ held.

    Whatever completes the smaller set from v completes the larger one too, so
    the answer (a walk exists, the least K) does not change.
    """
    by_node: dict[int, list[int]] = {}
    for state in layer:
        held, v = divmod(state, n)
        by_node.setdefault(v, []).append(held)
    if len(by_node) == len(layer):
        return layer
    kept: dict[int, int] = {}
    for v, sets in by_node.items():
        sets.sort(key=int.bit_count, reverse=True)
        maximal: list[int] = []
        for count, held in enumerate(sets):  # quadratic in the sets: the deadline is checked
            if deadline is not None and not count & 63 and monotonic() > deadline:
                raise SearchLimit("the search ran out of time")
            if not any(held | bigger == bigger for bigger in maximal):
                maximal.append(held)
                state = held * n + v
                kept[state] = layer[state]
    return kept


def _path(graph: _Graph, layers: list[dict[int, int]], goal: int) -> list[str]:
    states = [goal]
    for layer in reversed(layers[1:]):
        states.append(layer[states[-1]])
    return [graph.nodes[state % graph.n] for state in reversed(states)]


def find_walk(
    maze: Maze, steps: int | None = None, *, deadline: float | None = None
) -> list[str] | None:
    """A valid walk of exactly ``steps`` moves (default K), or None when there is none.

    ``deadline`` (a ``time.monotonic()`` value) bounds the work: `SearchLimit` past it.

    >>> from maze.parser import parse_maze
    >>> maze = parse_maze("START A B\\nGOLD WAND\\n3\\nSTART TREASURES NEXT A B\\n"
    ...                   "A TREASURES GOLD NEXT START\\nB TREASURES WAND NEXT START\\n")
    >>> find_walk(maze)
    ['START', 'A', 'START', 'B']
    >>> find_walk(maze, 2) is None
    True
    """
    k = maze.steps if steps is None else steps
    graph = _Graph(maze)
    if not graph.solvable:
        return None
    layers, goal = _layers(graph, k, exact=True, deadline=deadline)
    return None if goal is None else _path(graph, layers, goal)


def shortest_walk(
    maze: Maze, max_steps: int | None = None, *, deadline: float | None = None
) -> list[str] | None:
    """A walk with the fewest moves (at most ``max_steps``, default K) collecting everything.

    No walk of fewer moves exists, so every smaller K is unsatisfiable. ``deadline`` as
    for `find_walk`.
    """
    k = maze.steps if max_steps is None else max_steps
    graph = _Graph(maze)
    if not graph.solvable:
        return None
    layers, goal = _layers(graph, k, exact=False, deadline=deadline)
    return None if goal is None else _path(graph, layers, goal)


def shorter_walk(maze: Maze, steps: int, seconds: float) -> list[str] | None:
    """A walk of fewer than ``steps`` moves that collects everything, when the search finds
    one within ``seconds`` (None: there is none, or the search ran out of time).

    For a maze with no walk of exactly ``steps`` moves (dead ends, parity), this tells
    whether one of fewer moves exists, which "at most K" would accept.
    """
    if steps <= 0:
        return None
    try:
        return shortest_walk(maze, steps - 1, deadline=monotonic() + seconds)
    except SearchLimit:
        return None


def count_walks(maze: Maze, steps: int | None = None) -> int:
    """How many distinct valid walks of exactly ``steps`` moves (default K) there are."""
    k = maze.steps if steps is None else steps
    graph = _Graph(maze)
    if not graph.solvable:
        return 0
    n, full = graph.n, graph.full
    counts: dict[int, int] = {graph.start: 1}
    for time in range(1, k + 1):
        left = k - time
        nxt: dict[int, int] = {}
        for state, ways in counts.items():
            held, v = divmod(state, n)
            for w in graph.succ[v]:
                mask = held | graph.mask[w]
                if mask != full and not graph.slack_ok(w, mask, left):
                    continue
                code = mask * n + w
                nxt[code] = nxt.get(code, 0) + ways
        counts = nxt
    return sum(ways for state, ways in counts.items() if state // n == full)
