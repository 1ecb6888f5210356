"""The front end: the assignment's 8 clause categories for a maze, one function per category.

Atoms (seed 002): ``At(N,I)`` — the player is at node N at time I; ``Has(T,I)``
— the player holds treasure T at time I; for I = 0..K. They are numbered
time-major, all ``At`` atoms first, in the declared orders (the numbering most
real front ends use)::

    At(N,I)  = I*n + index(N) + 1                  (n nodes)
    Has(T,I) = n*(K+1) + I*t + index(T) + 1        (t treasures)

The categories, each a function below named after it:

1. ``one_place_at_a_time``       ¬At(M,I) ∨ ¬At(N,I)        every I, every pair M < N
2. ``move_on_edges``             ¬At(N,I) ∨ At(M1,I+1) ∨ … ∨ At(Mq,I+1)   I < K, NEXT as listed
3. ``collect_treasure``          ¬At(N,I) ∨ Has(T,I)        T at N, every I
4. ``keep_treasure``             ¬Has(T,I-1) ∨ Has(T,I)     I = 1..K
5. ``gain_only_at_supplier``     Has(T,I-1) ∨ ¬Has(T,I) ∨ At(M1,I) ∨ … ∨ At(Mq,I)   I = 1..K
6. ``start_at_start``            At(START,0)
7. ``no_treasure_at_start``      ¬Has(T,0)
8. ``all_treasures_at_end``      Has(T,K)

Example (cnfgen style): START ⇄ A, GOLD at A, K = 1. Atoms 1 At(START,0),
2 At(A,0), 3 At(START,1), 4 At(A,1), 5 Has(GOLD,0), 6 Has(GOLD,1)::

    p cnf 6 11
    -1 -2 0        1: one place at time 0
    -3 -4 0        1: one place at time 1
    -1 4 0         2: START at 0 -> A at 1
    -2 3 0         2: A at 0 -> START at 1
    -2 5 0         3: at A at 0 -> has GOLD at 0
    -4 6 0         3: at A at 1 -> has GOLD at 1
    -5 6 0         4: GOLD kept
    5 -6 4 0       5: GOLD gained at 1 only at A
    1 0            6
    -5 0           7
    6 0            8

The example maze of the assignment with K = 5 gives 334 clauses over 72 atoms,
its small maze (K = 3) 46 over 20 — the counts of every conforming front end.
Clauses are produced lazily (category 1 alone is n²/2 clauses a step), so a
big maze streams to a file without being held in memory; :mod:`maze.compact`
replaces category 1 by a linear at-most-one encoding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from maze.model import START, Maze

Clauses = Iterator[list[int]]


class Atoms:
    """The numbering of ``At``/``Has`` atoms for one maze (see the module docstring)."""

    def __init__(self, maze: Maze) -> None:
        self.nodes = list(maze.nodes)
        self.treasures = list(maze.treasures)
        self.steps = maze.steps
        self.node_index = {node: i for i, node in enumerate(self.nodes)}
        self.treasure_index = {treasure: i for i, treasure in enumerate(self.treasures)}
        self.n = len(self.nodes)
        self.t = len(self.treasures)
        self.has_base = self.n * (self.steps + 1)
        self.count = (self.n + self.t) * (self.steps + 1)
        """How many atoms there are (the highest atom number)."""

    def at(self, node: str, time: int) -> int:
        """The atom ``At(node,time)``."""
        return time * self.n + self.node_index[node] + 1

    def has(self, treasure: str, time: int) -> int:
        """The atom ``Has(treasure,time)``."""
        return self.has_base + time * self.t + self.treasure_index[treasure] + 1

    def name(self, atom: int) -> str:
        """``At(N,I)`` or ``Has(T,I)`` for an atom number in 1..count."""
        if not 1 <= atom <= self.count:
            raise ValueError(f"atom {atom} is not an At/Has atom (1..{self.count})")
        if atom <= self.has_base:
            time, index = divmod(atom - 1, self.n)
            return f"At({self.nodes[index]},{time})"
        time, index = divmod(atom - self.has_base - 1, self.t)
        return f"Has({self.treasures[index]},{time})"

    def name_list(self) -> list[str]:
        """Every atom's name in atom order (entry 0 is atom 1)."""
        steps = range(self.steps + 1)
        at = [f"At({node},{time})" for time in steps for node in self.nodes]
        return at + [f"Has({treasure},{time})" for time in steps for treasure in self.treasures]

    def names(self) -> dict[int, str]:
        """Every atom's name, by number."""
        return dict(enumerate(self.name_list(), start=1))


def one_place_at_a_time(maze: Maze, atoms: Atoms) -> Clauses:
    """Category 1: ¬At(M,I) ∨ ¬At(N,I) for every time I and every pair of nodes M < N."""
    n = atoms.n
    for time in range(maze.steps + 1):
        negated = [-(time * n + i + 1) for i in range(n)]
        for i in range(n - 1):
            first = negated[i]
            for other in negated[i + 1 :]:
                yield [first, other]


def one_place_at_a_time_lines(maze: Maze, atoms: Atoms, end: str) -> Iterator[str]:
    """Category 1 as text: blocks of clause lines, each line ending in ``end``.

    The same clauses as :func:`one_place_at_a_time`, in the same order, built
    with ``str.join`` so that the n²/2 clauses a step cost no Python loop
    iteration each. ``end`` is ``""`` for the DP format and ``" 0"`` for
    DIMACS; blocks carry no final newline.
    """
    n = atoms.n
    for time in range(maze.steps + 1):
        negated = [str(-(time * n + i + 1)) for i in range(n)]
        glue = end + "\n"
        for i in range(n - 1):
            head = negated[i] + " "
            yield head + (glue + head).join(negated[i + 1 :]) + end


def move_on_edges(maze: Maze, atoms: Atoms) -> Clauses:
    """Category 2: ¬At(N,I) ∨ At(M1,I+1) ∨ … ∨ At(Mq,I+1) for I < K, exits as listed.

    A node without exits gives the unit clause ¬At(N,I): it is a dead end.
    """
    n = atoms.n
    index = atoms.node_index
    rows = [(index[node], [index[target] for target in maze.exits_of(node)]) for node in maze.nodes]
    for time in range(maze.steps):
        here = time * n + 1
        there = here + n
        yield from [[-(here + i), *[there + j for j in targets]] for i, targets in rows]


def move_on_edges_lines(maze: Maze, atoms: Atoms, end: str) -> Iterator[str]:
    """:func:`move_on_edges` as text blocks (one per time step), lines ending in ``end``."""
    n = atoms.n
    index = atoms.node_index
    rows = [[index[target] for target in maze.exits_of(node)] for node in maze.nodes]
    glue = end + "\n"
    for time in range(maze.steps):
        here = [str(-(time * n + i + 1)) for i in range(n)]
        there = [str((time + 1) * n + j + 1) for j in range(n)]
        lines = [
            " ".join([here[i], *[there[j] for j in targets]]) for i, targets in enumerate(rows)
        ]
        yield glue.join(lines) + end


def collect_treasure(maze: Maze, atoms: Atoms) -> Clauses:
    """Category 3: ¬At(N,I) ∨ Has(T,I) for every treasure T at node N and every time I."""
    pairs = [
        (atoms.node_index[node], atoms.treasure_index[treasure])
        for node in maze.nodes
        for treasure in maze.treasures_of(node)
    ]
    n, t, has_base = atoms.n, atoms.t, atoms.has_base
    for time in range(maze.steps + 1):
        at_base = time * n + 1
        has_at = has_base + time * t + 1
        for i, j in pairs:
            yield [-(at_base + i), has_at + j]


def collect_treasure_lines(maze: Maze, atoms: Atoms, end: str) -> Iterator[str]:
    """:func:`collect_treasure` as text blocks (one per time step), lines ending in ``end``."""
    pairs = [
        (atoms.node_index[node], atoms.treasure_index[treasure])
        for node in maze.nodes
        for treasure in maze.treasures_of(node)
    ]
    if not pairs:
        return
    n, t, has_base = atoms.n, atoms.t, atoms.has_base
    glue = end + "\n"
    for time in range(maze.steps + 1):
        at = [str(-(time * n + i + 1)) for i, _j in pairs]
        has = [str(has_base + time * t + j + 1) for _i, j in pairs]
        yield glue.join(map(" ".join, zip(at, has, strict=True))) + end


def keep_treasure(maze: Maze, atoms: Atoms) -> Clauses:
    """Category 4: ¬Has(T,I-1) ∨ Has(T,I) for I = 1..K."""
    t, has_base = atoms.t, atoms.has_base
    for time in range(1, maze.steps + 1):
        now = has_base + time * t + 1
        for j in range(t):
            yield [-(now - t + j), now + j]


def gain_only_at_supplier(maze: Maze, atoms: Atoms) -> Clauses:
    """Category 5: Has(T,I-1) ∨ ¬Has(T,I) ∨ At(M1,I) ∨ … ∨ At(Mq,I), M the nodes holding T.

    For I = 1..K. A treasure no node holds gives Has(T,I-1) ∨ ¬Has(T,I).
    """
    t, n, has_base = atoms.t, atoms.n, atoms.has_base
    suppliers = [
        [atoms.node_index[node] for node in maze.suppliers(treasure)]
        for treasure in atoms.treasures
    ]
    for time in range(1, maze.steps + 1):
        now = has_base + time * t + 1
        at_base = time * n + 1
        for j, where in enumerate(suppliers):
            yield [now - t + j, -(now + j), *[at_base + i for i in where]]


def start_at_start(maze: Maze, atoms: Atoms) -> Clauses:
    """Category 6: At(START,0)."""
    yield [atoms.at(START, 0)]


def no_treasure_at_start(maze: Maze, atoms: Atoms) -> Clauses:
    """Category 7: ¬Has(T,0) for every treasure T."""
    for treasure in atoms.treasures:
        yield [-atoms.has(treasure, 0)]


def all_treasures_at_end(maze: Maze, atoms: Atoms) -> Clauses:
    """Category 8: Has(T,K) for every treasure T."""
    for treasure in atoms.treasures:
        yield [atoms.has(treasure, maze.steps)]


@dataclass
class Part:
    """One block of clauses: a category (or the compact at-most-one) and how to produce it.

    ``clauses()`` yields the clauses; ``lines(end)``, when not None, yields the
    same clauses as text blocks whose lines end in ``end`` (a fast path for the
    big categories); ``count`` is known without producing anything.
    """

    name: str
    count: int
    clauses: Callable[[], Clauses]
    lines: Callable[[str], Iterator[str]] | None = None


def category_counts(maze: Maze) -> dict[str, int]:
    """How many clauses each of the 8 categories has, computed without building them."""
    n, t, k = len(maze.nodes), len(maze.treasures), maze.steps
    placements = sum(len(maze.treasures_of(node)) for node in maze.nodes)
    return {
        "one_place_at_a_time": n * (n - 1) // 2 * (k + 1),
        "move_on_edges": n * k,
        "collect_treasure": placements * (k + 1),
        "keep_treasure": t * k,
        "gain_only_at_supplier": t * k,
        "start_at_start": 1,
        "no_treasure_at_start": t,
        "all_treasures_at_end": t,
    }


CATEGORIES = (
    one_place_at_a_time,
    move_on_edges,
    collect_treasure,
    keep_treasure,
    gain_only_at_supplier,
    start_at_start,
    no_treasure_at_start,
    all_treasures_at_end,
)
"""The 8 categories in the order the front end writes them."""


def assignment_parts(maze: Maze, atoms: Atoms) -> list[Part]:
    """The 8 categories as :class:`Part` blocks, in order."""
    counts = category_counts(maze)
    parts = [
        Part(category.__name__, counts[category.__name__], _bind(category, maze, atoms))
        for category in CATEGORIES
    ]
    parts[0].lines = lambda end: one_place_at_a_time_lines(maze, atoms, end)
    parts[1].lines = lambda end: move_on_edges_lines(maze, atoms, end)
    parts[2].lines = lambda end: collect_treasure_lines(maze, atoms, end)
    return parts


def _bind(
    category: Callable[[Maze, Atoms], Clauses], maze: Maze, atoms: Atoms
) -> Callable[[], Clauses]:
    return lambda: category(maze, atoms)
