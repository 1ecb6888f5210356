"""The compact encoding: category 1 as a sequential counter (Sinz 2005), linear instead of n²/2.

Categories 2–8 are the assignment's, unchanged and numbered the same way
(:mod:`maze.encoder`), followed by one block of redundant clauses (below).
Category 1 ("at most one place at a time") becomes, for
each time I with x_i = At(node_i, I) and auxiliary registers s_1 … s_{n-1}
(s_j: "the player is at one of nodes 1..j at time I")::

    ¬x_1 ∨ s_1
    ¬x_i ∨ s_i,   ¬s_{i-1} ∨ s_i,   ¬x_i ∨ ¬s_{i-1}        1 < i < n
    ¬x_n ∨ ¬s_{n-1}

that is 3n − 4 clauses and n − 1 new variables a step, instead of n(n−1)/2
clauses: at 1,000 nodes about 166× fewer. Any model of the assignment's
formula extends to one of this formula (set s_j from the x's) and every model
of this one restricted to the At/Has atoms is a model of the assignment's,
so both have the same answers and the same paths.

The redundant block, ``arrive_from_a_neighbour``: for I < K and every node N,
with M1 … Mp the nodes that list N as an exit::

    ¬At(N,I+1) ∨ At(M1,I) ∨ … ∨ At(Mp,I)

Every model of the 8 categories satisfies it (a walk reaches N from a node
whose NEXT list holds N), so no model and no answer changes; but it lets unit
propagation reason backwards from where the treasures are, which on a
1,000-node maze cut MiniSat's decisions about 5× and our DPLL's about 50×.
It adds n·K clauses, one per category-2 clause.

The registers are numbered after the At/Has atoms, time-major::

    Aux(amo,I,j) = (n + t)(K + 1) + I(n − 1) + j

and named so in the key, marking them as auxiliary.

Example: 3 nodes at one time (x = 1, 2, 3; s = 4, 5), in the order written:
``-1 4``, ``-2 5``, ``-4 5``, ``-2 -4``, ``-3 -5``.
"""

from __future__ import annotations

from collections.abc import Iterator

from maze.encoder import Atoms, Clauses, Part, assignment_parts
from maze.model import Maze


def aux_count(maze: Maze) -> int:
    """How many auxiliary variables the compact encoding adds: (K + 1)(n − 1)."""
    return (maze.steps + 1) * max(len(maze.nodes) - 1, 0)


def aux_name(maze: Maze, atoms: Atoms, number: int) -> str:
    """``Aux(amo,I,j)`` for an auxiliary variable number."""
    offset = number - atoms.count - 1
    registers = atoms.n - 1
    if registers <= 0 or not 0 <= offset < aux_count(maze):
        raise ValueError(f"variable {number} is not an auxiliary variable of this encoding")
    time, j = divmod(offset, registers)
    return f"Aux(amo,{time},{j + 1})"


def aux_names(maze: Maze) -> list[str]:
    """The names of all auxiliary variables, in variable order."""
    registers = range(1, len(maze.nodes))
    return [f"Aux(amo,{time},{j})" for time in range(maze.steps + 1) for j in registers]


def at_most_one_place(maze: Maze, atoms: Atoms) -> Clauses:
    """Category 1, compact: a sequential counter over the At atoms of each time step.

    Per time step, grouped by kind: every ¬x_i ∨ s_i, then every ¬s_{i-1} ∨ s_i,
    then every ¬x_i ∨ ¬s_{i-1} (grouping lets the text path join whole lists).
    """
    n = atoms.n
    if n < 2:
        return
    registers = n - 1
    for time in range(maze.steps + 1):
        x = time * n  # x + i is At(node_i, time) for i = 1..n
        s = atoms.count + time * registers  # s + j is Aux(amo,time,j) for j = 1..n-1
        yield from [[-(x + i), s + i] for i in range(1, n)]
        yield from [[-(s + i - 1), s + i] for i in range(2, n)]
        yield from [[-(x + i), -(s + i - 1)] for i in range(2, n + 1)]


def at_most_one_place_lines(maze: Maze, atoms: Atoms, end: str) -> Iterator[str]:
    """:func:`at_most_one_place` as text blocks (one per time step), lines ending in ``end``."""
    n = atoms.n
    if n < 2:
        return
    registers = n - 1
    glue = end + "\n"
    for time in range(maze.steps + 1):
        x = time * n
        s = atoms.count + time * registers
        not_x = [str(-(x + i)) for i in range(1, n + 1)]  # ¬x_1 … ¬x_n
        reg = [str(s + j) for j in range(1, n)]  # s_1 … s_{n-1}
        not_reg = [str(-(s + j)) for j in range(1, n)]  # ¬s_1 … ¬s_{n-1}
        pairs = [
            *map(" ".join, zip(not_x[:-1], reg, strict=True)),
            *map(" ".join, zip(not_reg[:-1], reg[1:], strict=True)),
            *map(" ".join, zip(not_x[1:], not_reg, strict=True)),
        ]
        yield glue.join(pairs) + end


def arrive_from_a_neighbour(maze: Maze, atoms: Atoms) -> Clauses:
    """¬At(N,I+1) ∨ At(M1,I) ∨ … ∨ At(Mp,I), the Mi listing N as an exit (I < K).

    A node nobody lists gives the unit ¬At(N,I+1).
    """
    n = atoms.n
    rows = _predecessors(maze, atoms)
    for time in range(maze.steps):
        here = time * n + 1
        yield from [
            [-(here + n + i), *[here + j for j in sources]] for i, sources in enumerate(rows)
        ]


def arrive_from_a_neighbour_lines(maze: Maze, atoms: Atoms, end: str) -> Iterator[str]:
    """:func:`arrive_from_a_neighbour` as text blocks (one per time), lines ending in ``end``."""
    n = atoms.n
    rows = _predecessors(maze, atoms)
    glue = end + "\n"
    for time in range(maze.steps):
        there = [str(-(time * n + n + i + 1)) for i in range(n)]
        here = [str(time * n + j + 1) for j in range(n)]
        lines = [
            " ".join([there[i], *[here[j] for j in sources]]) for i, sources in enumerate(rows)
        ]
        yield glue.join(lines) + end


def _predecessors(maze: Maze, atoms: Atoms) -> list[list[int]]:
    """For each node index, the indices of the nodes that list it as an exit (node order)."""
    rows: list[list[int]] = [[] for _ in range(atoms.n)]
    index = atoms.node_index
    for j, node in enumerate(maze.nodes):
        for target in maze.exits_of(node):
            rows[index[target]].append(j)
    return rows


def compact_parts(maze: Maze, atoms: Atoms) -> list[Part]:
    """The compact encoding as :class:`Part` blocks: the counter, categories 2–8, arrivals."""
    n = len(maze.nodes)
    counter = Part(
        "at_most_one_place",
        (maze.steps + 1) * (3 * n - 4) if n >= 2 else 0,
        lambda: at_most_one_place(maze, atoms),
        lambda end: at_most_one_place_lines(maze, atoms, end),
    )
    rest = assignment_parts(maze, atoms)[1:]  # categories 2–8
    arrivals = Part(
        "arrive_from_a_neighbour",
        n * maze.steps,
        lambda: arrive_from_a_neighbour(maze, atoms),
        lambda end: arrive_from_a_neighbour_lines(maze, atoms, end),
    )
    return [counter, *rest, arrivals]
