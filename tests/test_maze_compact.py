"""maze.compact: the sequential counter is exactly "at most one", linear, and marked auxiliary."""

from __future__ import annotations

import itertools

import pytest

from maze.cnf import encode
from maze.compact import at_most_one_place, aux_count, aux_name, aux_names
from maze.encoder import Atoms
from maze.generator import generate_maze
from maze.key import parse_key
from maze.model import Maze


def _line_maze(n: int, steps: int = 0) -> Maze:
    nodes = ["START", *(f"N{i}" for i in range(1, n))]
    return Maze(nodes, [], steps, {}, {node: list(nodes) for node in nodes})


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_counter_means_exactly_at_most_one(n):
    """For every assignment of the At atoms, some register values satisfy the counter
    if and only if at most one At atom is true."""
    maze = _line_maze(n)
    atoms = Atoms(maze)
    clauses = list(at_most_one_place(maze, atoms))
    assert len(clauses) == (3 * n - 4 if n >= 2 else 0)
    aux = list(range(atoms.count + 1, atoms.count + aux_count(maze) + 1))
    assert len(aux) == n - 1
    for xs in itertools.product([False, True], repeat=n):
        values = {i + 1: xs[i] for i in range(n)}

        def satisfied(registers, values=values):
            full = {**values, **dict(zip(aux, registers, strict=True))}
            return all(any(full[abs(lit)] == (lit > 0) for lit in clause) for clause in clauses)

        extendable = any(satisfied(r) for r in itertools.product([False, True], repeat=n - 1))
        assert extendable == (sum(xs) <= 1), xs


def test_documented_three_node_example():
    maze = _line_maze(3)
    atoms = Atoms(maze)
    assert list(at_most_one_place(maze, atoms)) == [[-1, 4], [-2, 5], [-4, 5], [-2, -4], [-3, -5]]


def test_registers_are_numbered_after_the_atoms_and_named_aux():
    maze = generate_maze(5, 2, 3, seed=4)
    cnf = encode(maze, "compact")
    assert cnf.nvars == cnf.atoms.count + 4 * 4
    names = cnf.names()
    assert names[cnf.atoms.count + 1] == "Aux(amo,0,1)"
    assert names[cnf.nvars] == "Aux(amo,3,4)"
    assert aux_name(maze, cnf.atoms, cnf.atoms.count + 5) == "Aux(amo,1,1)"
    with pytest.raises(ValueError):
        aux_name(maze, cnf.atoms, cnf.nvars + 1)
    key = parse_key(cnf.key_text())
    assert len(key.aux) == cnf.aux_vars
    assert len(key.at) == 5 * 4 and len(key.has) == 2 * 4


def test_compact_keeps_categories_two_to_eight():
    maze = generate_maze(8, 3, 4, seed=2, one_way=0.3)
    full = encode(maze).parts
    compact = encode(maze, "compact").parts
    assert [p.name for p in compact[1:8]] == [p.name for p in full[1:]]
    assert compact[8].name == "arrive_from_a_neighbour"
    for a, b in zip(full[1:], compact[1:8], strict=True):
        assert list(a.clauses()) == list(b.clauses())


def test_ten_times_fewer_clauses_at_a_thousand_nodes():
    """The issue's target, on counts (nothing is built: counts are exact and cheap)."""
    maze = generate_maze(1000, 10, 30, seed=1)
    full = encode(maze).clause_count
    compact = encode(maze, "compact").clause_count
    assert full >= 10 * compact
    assert full / compact > 100


def test_aux_names_in_order():
    maze = generate_maze(6, 1, 2, seed=3)
    cnf = encode(maze, "compact")
    listed = aux_names(maze)
    assert len(listed) == aux_count(maze) == cnf.aux_vars
    for offset, name in enumerate(listed):
        assert aux_name(maze, cnf.atoms, cnf.atoms.count + 1 + offset) == name


def test_arrivals_are_implied_by_every_walk():
    """Each valid walk satisfies every arrival clause (so the encoding keeps its models)."""
    from maze.compact import arrive_from_a_neighbour
    from maze.search import find_walk

    for seed in range(30):
        maze = generate_maze(12, 2, 6, seed, one_way=0.4)
        atoms = Atoms(maze)
        walk = find_walk(maze) or ["START"]
        true = {atoms.at(node, time) for time, node in enumerate(walk)}
        for clause in arrive_from_a_neighbour(maze, atoms):
            time = (abs(clause[0]) - 1) // atoms.n
            if time < len(walk):
                assert any((lit > 0) == (abs(lit) in true) for lit in clause), clause


def test_arrivals_example():
    from maze.compact import arrive_from_a_neighbour
    from maze.parser import parse_maze

    maze = parse_maze(
        "START A B\n\n1\nSTART TREASURES NEXT A\nA TREASURES NEXT START B\nB TREASURES NEXT\n"
    )
    atoms = Atoms(maze)
    # At(START,1) <- At(A,0); At(A,1) <- At(START,0); At(B,1) <- At(A,0)
    assert list(arrive_from_a_neighbour(maze, atoms)) == [[-4, 2], [-5, 1], [-6, 2]]
