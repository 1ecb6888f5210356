"""maze.encoder / maze.cnf: the 8 categories exactly, the canonical counts, the fast text path."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maze import encoder
from maze.cnf import encode
from maze.encoder import Atoms, category_counts
from maze.generator import generate_maze
from maze.key import parse_key
from maze.parser import parse_maze, read_maze

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
COMPAT = SHARED / "compat"
needs_compat = pytest.mark.skipif(not COMPAT.is_dir(), reason="../shared/compat is absent")

TWO_NODES = "START A\nGOLD\n1\nSTART TREASURES NEXT A\nA TREASURES GOLD NEXT START\n"


def test_two_node_example_matches_the_docstring():
    """The module docstring's DIMACS example is exactly what the encoder produces."""
    cnf = encode(parse_maze(TWO_NODES))
    shown = re.findall(r"^    ((?:-?\d+ )+)0 ", encoder.__doc__, flags=re.M)
    documented = [[int(x) for x in line.split()] for line in shown]
    assert cnf.clause_list() == documented
    header = re.search(r"p cnf (\d+) (\d+)", encoder.__doc__)
    assert (cnf.nvars, cnf.clause_count) == (int(header.group(1)), int(header.group(2)))


def test_atom_numbering_is_time_major_at_first():
    maze = parse_maze(TWO_NODES)
    atoms = Atoms(maze)
    assert atoms.names() == {
        1: "At(START,0)",
        2: "At(A,0)",
        3: "At(START,1)",
        4: "At(A,1)",
        5: "Has(GOLD,0)",
        6: "Has(GOLD,1)",
    }
    with pytest.raises(ValueError):
        atoms.name(7)


def test_each_category_on_the_two_node_maze():
    maze = parse_maze(TWO_NODES)
    atoms = Atoms(maze)
    got = {f.__name__: list(f(maze, atoms)) for f in encoder.CATEGORIES}
    assert got == {
        "one_place_at_a_time": [[-1, -2], [-3, -4]],
        "move_on_edges": [[-1, 4], [-2, 3]],
        "collect_treasure": [[-2, 5], [-4, 6]],
        "keep_treasure": [[-5, 6]],
        "gain_only_at_supplier": [[5, -6, 4]],
        "start_at_start": [[1]],
        "no_treasure_at_start": [[-5]],
        "all_treasures_at_end": [[6]],
    }


def test_dead_end_and_unsupplied_treasure():
    maze = parse_maze("START A\nGOLD\n1\nSTART TREASURES NEXT\nA TREASURES NEXT\n")
    atoms = Atoms(maze)
    assert list(encoder.move_on_edges(maze, atoms)) == [[-1], [-2]]
    assert list(encoder.gain_only_at_supplier(maze, atoms)) == [[5, -6]]


@needs_compat
@pytest.mark.parametrize(
    ("relative", "clauses", "atoms"),
    [
        ("Junxiao-Zhao__Davis-Putnam/FrontEndInput.txt", 334, 72),
        ("Junxiao-Zhao__Davis-Putnam/@1bd27a4/FrontEndInput.txt", 46, 20),
        ("jkolib__DPLL/fe_in.txt", 334, 72),
        ("jkolib__DPLL/@32d40a7/fe_in.txt", 334, 72),
        ("RohanK6__DavisPutnam-Algorithm/src/FrontEnd/big_maze_problem_example.txt", 334, 72),
        ("RohanK6__DavisPutnam-Algorithm/src/FrontEnd/small_maze_problem_example.txt", 46, 20),
        ("SiyuBi__Davis-Putnam-Implementation/input.txt", 334, 72),
        ("S2ang__SAT-solver/FrontEndInput.txt", 334, 72),
    ],
)
def test_canonical_counts(relative, clauses, atoms):
    cnf = encode(read_maze(COMPAT / relative))
    assert (cnf.clause_count, cnf.nvars) == (clauses, atoms)
    assert len(cnf.clause_list()) == clauses
    assert max(abs(lit) for clause in cnf.clauses() for lit in clause) == atoms


def _load_dp_input(path: Path) -> tuple[list[list[int]], str]:
    """Clauses and back matter of a DP input, read here without the format layer."""
    text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    lines = text.split("\n")
    zero = next(i for i, line in enumerate(lines) if line.strip() == "0")
    clauses = [[int(x) for x in line.split()] for line in lines[:zero] if line.strip()]
    return clauses, "\n".join(lines[zero + 1 :])


def _symbolic(clauses, key):
    def name(lit):
        var = abs(lit)
        if var in key.at:
            text = "At({},{})".format(*key.at[var])
        elif var in key.has:
            text = "Has({},{})".format(*key.has[var])
        else:
            text = f"?{var}"
        return ("-" if lit < 0 else "") + text

    return [tuple(name(lit) for lit in clause) for clause in clauses]


@needs_compat
@pytest.mark.parametrize(
    ("maze_file", "clause_file", "same_order"),
    [
        (
            "Junxiao-Zhao__Davis-Putnam/FrontEndInput.txt",
            "Junxiao-Zhao__Davis-Putnam/FrontEndOutput.txt",
            True,
        ),
        (
            "Junxiao-Zhao__Davis-Putnam/@1bd27a4/FrontEndInput.txt",
            "Junxiao-Zhao__Davis-Putnam/@1bd27a4/FrontEndOutput.txt",
            True,
        ),
        (
            "RohanK6__DavisPutnam-Algorithm/src/FrontEnd/big_maze_problem_example.txt",
            "RohanK6__DavisPutnam-Algorithm/src/DavisPutnam/input.txt",
            True,
        ),
        (
            "RohanK6__DavisPutnam-Algorithm/src/FrontEnd/small_maze_problem_example.txt",
            "RohanK6__DavisPutnam-Algorithm/@d602db6/src/FrontEnd/output.txt",
            True,
        ),
        (
            "SiyuBi__Davis-Putnam-Implementation/input.txt",
            "SiyuBi__Davis-Putnam-Implementation/clauses.txt",
            False,
        ),
    ],
)
def test_same_clauses_as_other_front_ends(maze_file, clause_file, same_order):
    """Compared by atom names (numberings differ): the same set; mostly the same order."""
    cnf = encode(read_maze(COMPAT / maze_file))
    ours = _symbolic(cnf.clause_list(), parse_key(cnf.key_text()))
    clauses, back_matter = _load_dp_input(COMPAT / clause_file)
    theirs = _symbolic(clauses, parse_key(back_matter))
    assert sorted(map(sorted, ours)) == sorted(map(sorted, theirs))
    assert (ours == theirs) is same_order


def test_key_text_lists_at_then_has_atoms():
    cnf = encode(parse_maze(TWO_NODES))
    assert cnf.key_text() == (
        "1 At(START,0)\n2 At(A,0)\n3 At(START,1)\n4 At(A,1)\n5 Has(GOLD,0)\n6 Has(GOLD,1)\n"
    )


def test_dp_input_text():
    cnf = encode(parse_maze(TWO_NODES))
    out = io.StringIO()
    cnf.write_dp_input(out)
    lines = out.getvalue().split("\n")
    assert lines[:11] == [
        "-1 -2",
        "-3 -4",
        "-1 4",
        "-2 3",
        "-2 5",
        "-4 6",
        "-5 6",
        "5 -6 4",
        "1",
        "-5",
        "6",
    ]
    assert lines[11] == "0"
    assert "\n".join(lines[12:]) == cnf.key_text()


def test_dimacs_text():
    cnf = encode(parse_maze(TWO_NODES))
    out = io.StringIO()
    cnf.write_dimacs(out)
    text = out.getvalue()
    assert "p cnf 6 11\n" in text
    assert "c var 2 At(A,0)\n" in text
    body = text.split("p cnf 6 11\n", 1)[1]
    assert body.split("\n")[:3] == ["-1 -2 0", "-3 -4 0", "-1 4 0"]
    assert body.count("\n") == 11
    assert all(line.startswith("c ") for line in text.split("p cnf")[0].splitlines())


def test_unknown_encoding():
    with pytest.raises(ValueError, match="compact"):
        encode(parse_maze(TWO_NODES), "pairwise")


mazes = st.builds(
    lambda n, t, k, seed, one_way: generate_maze(n, t if n > 1 else 0, k, seed, one_way=one_way),
    st.integers(1, 15),
    st.integers(0, 5),
    st.integers(0, 6),
    st.integers(0, 10**6),
    st.sampled_from([0.0, 0.4]),
)


@given(mazes, st.sampled_from(["assignment", "compact"]))
@settings(max_examples=80, deadline=None)
def test_counts_and_text_agree_with_the_clauses(maze, encoding):
    cnf = encode(maze, encoding)
    clauses = cnf.clause_list()
    assert len(clauses) == cnf.clause_count
    assert all(1 <= abs(lit) <= cnf.nvars for clause in clauses for lit in clause)
    for end in ("", " 0"):
        text = "\n".join(cnf.lines(end))
        expected = "\n".join(" ".join(map(str, clause)) + end for clause in clauses)
        assert text == expected
    if encoding == "assignment":
        assert sum(category_counts(maze).values()) == cnf.clause_count
        assert cnf.nvars == (len(maze.nodes) + len(maze.treasures)) * (maze.steps + 1)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 14), st.integers(0, 4), st.integers(0, 40), st.integers(0, 10**6),
       st.sampled_from(["assignment", "compact"]))  # fmt: skip
def test_least_bytes_is_a_lower_bound_of_what_is_written(nodes, treasures, steps, seed, encoding):
    # the disk check before `maze encode` used 4 bytes a clause, where 23 are written: a K
    # needing 130 GB was started on 80 GB free (audit 17-D #1); the bound must stay sure
    cnf = encode(generate_maze(nodes, treasures, steps, seed=seed), encoding)
    for write in (cnf.write_dp_input, cnf.write_dimacs):
        handle = io.StringIO()
        write(handle)
        assert cnf.least_bytes() <= len(handle.getvalue().encode())
    handle = io.StringIO()
    cnf.write_dp_input(handle, "node-time")  # a smaller key: its own bound
    assert cnf.least_bytes("node-time") <= len(handle.getvalue().encode())
    if encoding == "assignment":  # the key's size is exact (compact: Aux lines not counted)
        key = cnf.key_text("node-time")
        assert cnf.least_bytes("node-time") - len(key) == cnf.least_bytes() - len(cnf.key_text())


def test_least_bytes_refuses_what_surely_cannot_fit():
    # the example maze at K = 10^8 writes more than 130 GB
    example = read_maze(Path(__file__).resolve().parents[1] / "data" / "maze" / "example.txt")
    assert encode(example.with_steps(10**8)).least_bytes() > 110 * 10**9
