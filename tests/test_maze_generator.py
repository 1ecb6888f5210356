"""maze.generator: deterministic per seed, connected, one-way edges on request, names in limits."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maze.generator import generate_maze, treasure_names
from maze.parser import parse_maze
from maze.search import find_walk
from maze.validator import path_problems
from maze.writer import maze_text


def _undirected_reach(maze):
    neighbours = {node: set() for node in maze.nodes}
    for node in maze.nodes:
        for other in maze.exits_of(node):
            neighbours[node].add(other)
            neighbours[other].add(node)
    seen = {"START"}
    queue = deque(["START"])
    while queue:
        for other in neighbours[queue.popleft()]:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return seen


@given(
    st.integers(1, 60),
    st.integers(0, 12),
    st.integers(0, 20),
    st.integers(0, 10**9),
    st.floats(0.0, 6.0),
    st.floats(0.0, 1.0),
)
@settings(max_examples=60, deadline=None)
def test_properties(nodes, treasures, steps, seed, degree, one_way):
    if nodes < 2:
        treasures = 0
    maze = generate_maze(nodes, treasures, steps, seed, degree=degree, one_way=one_way)
    assert len(maze.nodes) == nodes and maze.nodes[0] == "START"
    assert len(maze.treasures) == treasures and maze.steps == steps
    assert _undirected_reach(maze) == set(maze.nodes)
    assert maze.start_treasures == []
    for treasure in maze.treasures:
        assert 1 <= len(maze.suppliers(treasure)) <= 2
    for node in maze.nodes:
        assert node not in maze.exits_of(node)
        assert len(set(maze.exits_of(node))) == len(maze.exits_of(node))
    assert generate_maze(nodes, treasures, steps, seed, degree=degree, one_way=one_way) == maze
    assert parse_maze(maze_text(maze)).warnings == []


def test_one_way_probability():
    two_way = generate_maze(50, 0, 5, seed=1, one_way=0.0)
    one_way = generate_maze(50, 0, 5, seed=1, one_way=1.0)

    def mutual(maze):
        return sum(1 for a in maze.nodes for b in maze.exits_of(a) if a in maze.exits_of(b))

    assert mutual(two_way) == two_way.edge_count
    assert mutual(one_way) == 0


def test_degree_controls_edge_count():
    maze = generate_maze(200, 0, 5, seed=2, degree=4)
    assert maze.edge_count == 2 * 400  # 400 undirected edges, each two-way


def test_a_huge_finite_degree_joins_every_pair():
    # 1e308 * nodes / 2 is inf as a float: it used to reach round() and raise OverflowError
    for degree in (1e308, 3.0, 100.0):
        maze = generate_maze(4, 1, 5, seed=3, degree=degree)
        assert maze.edge_count == 2 * 6  # all 6 pairs, each two-way
    assert generate_maze(4, 1, 5, seed=3, degree=1e308) == generate_maze(4, 1, 5, seed=3, degree=3)


def test_seeds_differ():
    assert generate_maze(30, 3, 5, seed=1) != generate_maze(30, 3, 5, seed=2)


def test_treasure_names_within_limit():
    names = treasure_names(40)
    assert len(set(names)) == 40 and all(len(name) <= 10 for name in names)
    assert names[:3] == ["GOLD", "WAND", "RUBY"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"nodes": 0, "treasures": 0, "steps": 1},
        {"nodes": 1, "treasures": 1, "steps": 1},
        {"nodes": 3, "treasures": -1, "steps": 1},
        {"nodes": 3, "treasures": 1, "steps": -1},
        {"nodes": 3, "treasures": 1, "steps": 1, "degree": -1},
        {"nodes": 3, "treasures": 1, "steps": 1, "one_way": 1.5},
    ],
)
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        generate_maze(**kwargs)


@given(
    st.integers(2, 80),
    st.integers(1, 8),
    st.integers(1, 25),
    st.integers(0, 10**9),
    st.sampled_from([0.0, 0.3]),
)
@settings(max_examples=40, deadline=None)
def test_planted_mazes_have_a_walk(nodes, treasures, steps, seed, one_way):
    try:
        maze = generate_maze(nodes, treasures, steps, seed, one_way=one_way, planted=True)
    except ValueError as exc:  # one-way edges can leave no walk of that length at all
        assert "no walk" in str(exc) and one_way > 0
        return
    walk = find_walk(maze)
    assert walk is not None and path_problems(maze, walk) == []
    assert maze.name.endswith(",planted)")
    assert all(len(set(held)) == len(held) for held in maze.treasures_at.values())


@pytest.mark.parametrize(("nodes", "treasures", "steps", "seed"), [(20, 6, 3, 3), (5, 10, 4, 2)])
def test_a_planted_maze_lists_a_treasure_once_a_node(nodes, treasures, steps, seed):
    # the walk's node could be the treasure's second home too: `--strict` then refused the
    # maze `maze generate --planted` had just written (audit 22-C #1)
    maze = generate_maze(nodes, treasures, steps, seed, planted=True)
    assert all(len(set(held)) == len(held) for held in maze.treasures_at.values())
    parse_maze(maze_text(maze), strict=True)


def test_planted_needs_a_step():
    with pytest.raises(ValueError, match="at least 1 step"):
        generate_maze(5, 2, 0, seed=1, planted=True)
    assert generate_maze(5, 0, 0, seed=1, planted=True).treasures == []


def test_planted_without_any_walk():
    with pytest.raises(ValueError, match="no walk"):
        generate_maze(2, 1, 3, seed=0, one_way=1.0, planted=True)  # START -> N1 or N1 -> START only


def test_planted_without_treasures_still_needs_a_walk_of_k_moves():
    # every step is a move, so with no treasure the maze is solvable only if a walk of K
    # moves exists; --planted promised a solution and did not look for one (audit 28-D #2)
    from dpll import Solver
    from maze.pipeline import solve_maze

    with pytest.raises(ValueError, match="no walk of that many moves"):
        generate_maze(1, 0, 1, seed=0, planted=True)  # START alone, no exit
    with pytest.raises(ValueError, match="no walk of that many moves"):
        generate_maze(6, 0, 8, seed=0, degree=1, one_way=1.0, planted=True)  # a dead end
    maze = generate_maze(6, 0, 8, seed=0, planted=True)
    answer = solve_maze(maze, lambda clauses: Solver(bootstrap_with=clauses))
    assert answer.path is not None and len(answer.path) == 9
