"""Random mazes for tests and benchmarks: connected graphs, one-way edges, treasures at random.

Same arguments and seed, same maze (``random.Random(seed)`` is the only source
of randomness). Construction:

1. nodes ``START``, ``N1`` … ``N{n-1}``; a random recursive tree joins them
   (in a shuffled order, each node to a random earlier one), so the
   undirected graph is connected;
2. random extra edges until there are about ``degree * n / 2`` edges;
3. each edge is two-way, or with probability ``one_way`` one-way in a random
   direction (which may leave nodes unreachable — a source of unsatisfiable
   mazes);
4. each treasure is put at one random node other than START (a quarter of
   them at a second node too) — or, with ``planted``, at a node that a random
   walk of exactly K moves from START visits, so that this walk collects
   every treasure and the maze is satisfiable (with no treasure, that walk must
   still exist: it is looked for, and its absence refused, all the same).

Without ``planted`` nothing guarantees a walk exists: random treasures in a
big sparse maze are usually too far apart for K moves.
"""

from __future__ import annotations

import random

from maze.model import START, Maze

TREASURE_NAMES = (
    "GOLD", "WAND", "RUBY", "PEARL", "JADE", "OPAL", "AMBER", "IVORY",
    "SILK", "CROWN", "LAMP", "RING", "SWORD", "SHIELD", "MAP", "KEY",
)  # fmt: skip
"""Names for the first treasures (then ``T17``, ``T18``, …)."""


def node_names(count: int) -> list[str]:
    """``START`` then ``N1`` … ``N{count-1}``."""
    return [START, *(f"N{i}" for i in range(1, count))]


def treasure_names(count: int) -> list[str]:
    """``GOLD``, ``WAND``, … then ``T17`` … (all within the course's 10-character limit)."""
    names = list(TREASURE_NAMES[:count])
    names.extend(f"T{i}" for i in range(len(names) + 1, count + 1))
    return names


def generate_maze(
    nodes: int,
    treasures: int,
    steps: int,
    seed: int = 0,
    *,
    degree: float = 3.0,
    one_way: float = 0.0,
    planted: bool = False,
) -> Maze:
    """A random maze (see the module docstring); ValueError for impossible arguments.

    >>> maze = generate_maze(6, 2, 4, seed=1)
    >>> maze.nodes, maze.treasures, maze.steps
    (['START', 'N1', 'N2', 'N3', 'N4', 'N5'], ['GOLD', 'WAND'], 4)
    >>> generate_maze(6, 2, 4, seed=1) == maze
    True
    """
    if nodes < 1:
        raise ValueError("a maze needs at least 1 node (START)")
    if seed < 0:  # random.Random(-S) is random.Random(S): -S would repeat S's maze
        raise ValueError(f"seed must be 0 or more, not {seed}")
    if treasures < 0 or steps < 0:
        raise ValueError("treasures and steps must be non-negative")
    if treasures and nodes < 2:
        raise ValueError("treasures need a node other than START")
    if not 0 <= degree < float("inf"):  # also refuses nan
        raise ValueError("degree must be a finite number of neighbours, 0 or more")
    if not 0.0 <= one_way <= 1.0:
        raise ValueError("one-way must be a probability between 0 and 1")
    if planted and treasures and steps < 1:
        raise ValueError("a planted walk needs at least 1 step to collect treasures")
    rng = random.Random(seed)
    names = node_names(nodes)

    edges: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()

    def join(a: int, b: int) -> None:
        pair = (min(a, b), max(a, b))
        if a != b and pair not in seen:
            seen.add(pair)
            edges.append(pair)

    order = list(range(nodes))
    rng.shuffle(order)  # START must not always be the tree's root (it would be a hub)
    for k in range(1, nodes):
        join(order[k], order[rng.randrange(k)])
    complete = nodes * (nodes - 1) // 2  # every pair joined: more degree adds nothing
    wanted = degree * nodes / 2  # (a float: 1e308 * nodes may be inf, which round() refuses)
    target = complete if wanted >= complete else max(round(wanted), nodes - 1)
    while len(edges) < target:
        join(rng.randrange(nodes), rng.randrange(nodes))

    exits: dict[str, list[int]] = {name: [] for name in names}
    for a, b in edges:
        if rng.random() < one_way:
            if rng.random() < 0.5:
                a, b = b, a
            exits[names[a]].append(b)
        else:
            exits[names[a]].append(b)
            exits[names[b]].append(a)

    chosen = treasure_names(treasures)
    # (with no treasure too: every step is a move, so the maze is solvable only if a walk
    # of exactly K moves exists, and `planted` promises one; audit 28-D #2)
    on_walk = _planted_walk(rng, exits, steps) if planted and (treasures or steps) else []
    treasures_at: dict[str, list[str]] = {name: [] for name in names}
    for treasure in chosen:
        homes = rng.sample(range(1, nodes), min(2, nodes - 1)) if rng.random() < 0.25 else []
        if on_walk:
            # (the walk's node may be the second home already: one treasure once a node)
            homes = list(dict.fromkeys([rng.choice(on_walk), *homes[1:]]))
        homes = homes or [rng.randrange(1, nodes)]
        for home in homes:
            treasures_at[names[home]].append(treasure)

    suffix = ",planted" if planted else ""
    return Maze(
        nodes=names,
        treasures=chosen,
        steps=steps,
        treasures_at=treasures_at,
        exits={name: [names[i] for i in sorted(targets)] for name, targets in exits.items()},
        name=f"generated(nodes={nodes},treasures={treasures},steps={steps},seed={seed}{suffix})",
    )


def _planted_walk(rng: random.Random, exits: dict[str, list[int]], steps: int) -> list[int]:
    """The nodes (other than START) a random walk of exactly ``steps`` moves visits.

    Dead ends (possible with one-way edges) make a walk fail; after 1,000
    failed walks this is a ValueError.
    """
    targets = list(exits.values())  # node index -> exit indices (START is index 0)
    for _ in range(1000):
        here, visited = 0, []
        for _step in range(steps):
            if not targets[here]:
                break
            here = rng.choice(targets[here])
            visited.append(here)
        else:
            return [node for node in visited if node != 0]
    raise ValueError("no walk of that many moves from START exists (a planted maze needs one)")
