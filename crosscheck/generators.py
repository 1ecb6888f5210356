"""Random instances for fuzzing, each fully determined by its seed (printed as ``c seed N``).

- :func:`cnfuzz`: layered random CNF in the style of Biere's cnfuzz
  (Brummayer, Lonsing, Biere, SAT 2010): variables come in layers; each
  layer gets 3.0–4.5 clauses per variable of itself and the layer before;
  a clause has 3 literals, growing by one with probability 2/3 (at most 20);
  each literal comes from the clause's layer, or with probability 1/2 (and
  again) from an earlier one; every literal of a layer is used once before
  literals are drawn at random. Structured, with long clauses — different
  from what random 3-SAT exercises; 213 of 400 satisfiable (53 %).
- :func:`random_ksat`: uniform random k-SAT near its threshold (k = 3 at
  clause/variable ratio 3.8–4.7 with at most 100 variables most of the
  time; also k = 2 around 1 and k = 4 around 9.9 with at most 50);
  259 of 400 satisfiable (65 %).
- :func:`edge`: cnfuzz's formula with a few seeded edge cases that the
  other families never produce: a literal written twice, a tautology, now
  and then an empty clause, variables declared but unused, or no clauses.
- :func:`random_maze`: a small maze from :func:`maze.generator.generate_maze`
  with random size, K, degree and one-way edges (often unsatisfiable).

The shares satisfiable were measured by solving the formulas of seeds 0–399 at
``max_vars`` 200 with PySAT's MiniSat 2.2 (a test does it again). At ``max_vars`` 40,
the bound of the CI fuzz run, they are 239 and 287 of 400 (60 % and 72 %).

``max_vars`` bounds the number of variables (for mazes: At/Has atoms),
so a CI run can fuzz thousands of small instances quickly; each family has a
least bound it can honour (:data:`MIN_VARS`).
"""

from __future__ import annotations

import random

from formats.formula import Formula
from maze.generator import generate_maze
from maze.model import Maze

MAX_CLAUSE = 20
"""cnfuzz's longest clause."""

MAZE_MIN_ATOMS = 6
"""The fewest At/Has atoms a random maze can have: (2 nodes + 1 treasure) × (K = 1, + 1)."""

MIN_VARS = {"cnfuzz": 3, "ksat": 2, "maze": MAZE_MIN_ATOMS, "edge": 3}
"""The smallest ``max_vars`` each family honours (maze: At/Has atoms)."""

_KSAT = ((2, 0.15, 0.8, 1.2, 1000), (3, 0.70, 3.8, 4.7, 100), (4, 0.15, 9.0, 10.8, 50))
"""(k, share of instances, lowest and highest clause/variable ratio, most variables):
near the threshold, 3-SAT beyond 100 and 4-SAT beyond 50 variables get slow to
refute in pure Python, and fuzzing wants many quick instances."""


def cnfuzz(seed: int, max_vars: int = 200) -> Formula:
    """A cnfuzz-style layered random CNF (see the module docstring) with at most ``max_vars``.

    >>> formula = cnfuzz(7, max_vars=40)
    >>> formula.comments[0], formula.nvars <= 40, cnfuzz(7, max_vars=40) == formula
    ('seed 7', True, True)
    """
    rng = random.Random(seed)
    top = max(3, max_vars)
    widest = rng.randint(min(10, top), min(70, top))
    layers = rng.randint(1, 20)
    low: list[int] = []
    high: list[int] = []
    for _ in range(layers):
        start = high[-1] + 1 if high else 1
        if start > top:
            break
        width = min(rng.randint(min(10, widest), widest), top - start + 1)
        low.append(start)
        high.append(start + width - 1)
    comments = [f"seed {seed}", f"cnfuzz-style layered CNF: {len(low)} layers, max width {widest}"]
    clauses: list[list[int]] = []
    unused = [
        [sign * var for var in range(low[j], high[j] + 1) for sign in (-1, 1)]
        for j in range(len(low))
    ]
    for i in range(len(low)):
        width = high[i] - low[i] + 1
        span = width + (high[i - 1] - low[i - 1] + 1 if i else 0)
        count = rng.randint(300, 450) * span // 100
        comments.append(f"layer {i}: variables {low[i]}..{high[i]}, {count} clauses")
        for _ in range(count):
            length = 3
            while length < MAX_CLAUSE and rng.randint(17, 19) != 17:
                length += 1
            clause: list[int] = []
            used: set[int] = set()
            for _ in range(length):
                layer = i
                while layer and rng.randint(3, 4) == 3:
                    layer -= 1
                pool = unused[layer]
                if pool:
                    pick = rng.randrange(len(pool))
                    lit = pool[pick]
                    if abs(lit) in used:
                        continue
                    pool[pick] = pool[-1]
                    pool.pop()
                else:
                    var = rng.randint(low[layer], high[layer])
                    if var in used:
                        continue
                    lit = var if rng.randint(31, 32) == 31 else -var
                clause.append(lit)
                used.add(abs(lit))
            clauses.append(clause)
    nvars = high[-1] if high else 0
    return Formula(nvars=nvars, clauses=clauses, comments=comments)


def edge(seed: int, max_vars: int = 200) -> Formula:
    """:func:`cnfuzz`'s formula for ``seed`` with edge cases that a reader or a solver's
    preprocessing may get wrong, each listed in a comment:

    - one to three times, a clause gets a copy of one of its literals, or (as often) the
      negation of one, which makes it a tautology;
    - one time in ten, an empty clause is added (the formula is then unsatisfiable);
    - one time in ten, variables are declared but not used: the header's count goes up
      (within ``max_vars``), or when there is no room, one variable's literals are
      renamed to another variable's;
    - one time in twenty, the formula has no clauses at all (half of those no variables).

    The edge cases are drawn from a generator of their own (seeded ``edge SEED``), so
    cnfuzz's formulas stay as they are.

    >>> formula = edge(7, max_vars=40)
    >>> formula.comments[0], formula.nvars <= 40, edge(7, max_vars=40) == formula
    ('seed 7', True, True)
    """
    base = cnfuzz(seed, max_vars)
    rng = random.Random(f"edge {seed}")
    comments = [f"seed {seed}", f"edge cases on cnfuzz's formula ({base.comments[1]})"]
    if rng.random() < 0.05:
        nvars = rng.choice((0, base.nvars))
        comments.append(f"edge: no clauses, {nvars} variables")
        return Formula(nvars=nvars, clauses=[], comments=comments)
    clauses = [list(clause) for clause in base.clauses]
    nvars = base.nvars
    for _ in range(rng.randint(1, 3)):
        clause = rng.choice(clauses)
        lit = rng.choice(clause)
        twin = lit if rng.random() < 0.5 else -lit
        clause.insert(rng.randint(0, len(clause)), twin)
        what = f"literal {lit} written twice" if twin == lit else f"tautology {lit} {-lit}"
        comments.append(f"edge: {what} in a clause")
    if rng.random() < 0.1:
        clauses.insert(rng.randint(0, len(clauses)), [])
        comments.append("edge: an empty clause")
    if rng.random() < 0.1:
        if nvars < max_vars:
            declared = rng.randint(nvars + 1, min(max_vars, nvars + 10))
            comments.append(f"edge: variables {nvars + 1}..{declared} declared, not used")
            nvars = declared
        else:
            gone, kept = rng.sample(range(1, nvars + 1), 2)
            for clause in clauses:
                clause[:] = [(kept if lit > 0 else -kept) if abs(lit) == gone else lit
                             for lit in clause]  # fmt: skip
            comments.append(f"edge: variable {gone} declared, not used (now {kept})")
    return Formula(nvars=nvars, clauses=clauses, comments=comments)


def random_ksat(seed: int, max_vars: int = 200) -> Formula:
    """Uniform random k-SAT near the threshold (see the module docstring).

    >>> formula = random_ksat(3, max_vars=30)
    >>> formula.comments[0], all(len(set(map(abs, c))) == len(c) for c in formula.clauses)
    ('seed 3', True)
    """
    rng = random.Random(seed)
    roll = rng.random()
    k, _share, lowest, highest, most = _KSAT[-1]
    for choice in _KSAT:
        if roll < choice[1]:
            k, _share, lowest, highest, most = choice
            break
        roll -= choice[1]
    if k > max_vars:  # a clause has k distinct variables: take the widest k that fits
        fits = max(2, max_vars)
        k, _share, lowest, highest, most = next(row for row in _KSAT if row[0] == fits)
    top = max(k, min(max_vars, most))
    n = rng.randint(min(max(k, 5), top), top)
    ratio = rng.uniform(lowest, highest)
    m = max(1, round(ratio * n))
    clauses = [
        [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), k)] for _ in range(m)
    ]
    comments = [f"seed {seed}", f"random {k}-SAT: {n} variables, {m} clauses, ratio {m / n:.2f}"]
    return Formula(nvars=n, clauses=clauses, comments=comments)


def random_maze(seed: int, max_vars: int = 200) -> tuple[Maze, str]:
    """A random small maze and the encoding to use (assignment or compact, by seed parity).

    Sizes: 3–10 nodes, 1–3 treasures, K = 2–7, degree 1.2–3.0, and half the
    time some one-way edges; K, then the node count, then the treasure count
    shrink until the At/Has atoms fit ``max_vars`` (at least `MAZE_MIN_ATOMS`:
    START, one more node, one treasure, K = 1).

    >>> maze, _ = random_maze(12, max_vars=6)
    >>> (len(maze.nodes) + len(maze.treasures)) * (maze.steps + 1) <= 6
    True
    """
    rng = random.Random(seed)
    nodes = rng.randint(3, 10)
    treasures = rng.randint(1, 3)
    steps = rng.randint(2, 7)
    degree = rng.uniform(1.2, 3.0)
    one_way = rng.uniform(0.1, 0.6) if rng.random() < 0.5 else 0.0
    bound = max(max_vars, MAZE_MIN_ATOMS)
    while (nodes + treasures) * (steps + 1) > bound and steps > 1:
        steps -= 1
    while (nodes + treasures) * (steps + 1) > bound and nodes > 2:
        nodes -= 1
    while (nodes + treasures) * (steps + 1) > bound and treasures > 1:
        treasures -= 1
    maze = generate_maze(nodes, treasures, steps, seed, degree=degree, one_way=one_way)
    maze.name = f"maze seed {seed}"
    return maze, ("assignment", "compact")[seed % 2]
