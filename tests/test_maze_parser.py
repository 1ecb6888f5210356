"""maze.parser: what real maze files contain is accepted; what is wrong is reported by line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formats.errors import FormatError
from maze.generator import generate_maze
from maze.parser import parse_maze, read_maze
from maze.writer import maze_text

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
COMPAT = SHARED / "compat"

SMALL = (
    "START A B\nGOLD WAND\n3\n"
    "START TREASURES NEXT A B\nA TREASURES GOLD NEXT START\nB TREASURES WAND NEXT START\n"
)


def test_small_maze_reads_as_written():
    maze = parse_maze(SMALL, "small.txt")
    assert maze.nodes == ["START", "A", "B"]
    assert maze.treasures == ["GOLD", "WAND"]
    assert maze.steps == 3
    assert maze.exits_of("START") == ["A", "B"]
    assert maze.exits_of("A") == ["START"]
    assert maze.treasures_of("B") == ["WAND"]
    assert maze.suppliers("GOLD") == ["A"]
    assert maze.warnings == []
    assert maze.name == "small.txt"


@pytest.mark.parametrize(
    "variant",
    [
        SMALL.replace("\n", "\r\n"),
        "\ufeff" + SMALL,
        SMALL.rstrip("\n"),
        SMALL.replace(" ", "   "),
        SMALL.replace(" ", "\t"),
        "\n".join("  " + line + "  " for line in SMALL.split("\n")),
        SMALL.replace("3\n", "3\n\n\n") + "\n\n   \n",
        SMALL.replace("\n", "\r"),
    ],
    ids=[
        "crlf",
        "bom",
        "no-final-newline",
        "runs-of-blanks",
        "tabs",
        "padding",
        "blank-lines",
        "cr",
    ],
)
def test_whitespace_variants_give_the_same_maze(variant):
    reference = parse_maze(SMALL)
    maze = parse_maze(variant)
    assert (maze.nodes, maze.treasures, maze.steps) == (reference.nodes, reference.treasures, 3)
    assert maze.exits == reference.exits
    assert maze.treasures_at == reference.treasures_at
    assert maze.warnings == []


def test_double_blank_is_not_a_phantom_node():
    maze = parse_maze(SMALL.replace("START A B", "START A  B"))
    assert maze.nodes == ["START", "A", "B"]


def test_empty_treasure_line_means_no_treasures():
    maze = parse_maze("START A\n\n2\nSTART TREASURES NEXT A\nA TREASURES NEXT START\n")
    assert maze.treasures == []
    assert maze.steps == 2


def test_exits_are_directed_as_written():
    maze = parse_maze("START A\n\n1\nSTART TREASURES NEXT A\nA TREASURES NEXT\n")
    assert maze.exits_of("START") == ["A"]
    assert maze.exits_of("A") == []


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        (
            "START A\nGOLD\n2\nSTART TREASURES NEXT A\nA TREASURES GOLD NEXT START\n"
            + "A TREASURES NEXT START\n",
            6,
            "second line for node A",
        ),
        ("START A\nGOLD\n2\nSTART TREASURES NEXT Z\n", 4, "unknown node Z"),
        ("START A\nGOLD\n2\nZ TREASURES NEXT A\n", 4, "node Z is not declared"),
        ("START A\nGOLD\n2\nA TREASURES SILVER NEXT START\n", 4, "treasure SILVER is not declared"),
        ("START A\nGOLD\nfive\n", 3, "non-negative integer"),
        ("START A\nGOLD\n-1\n", 3, "non-negative integer"),
        ("START A\nGOLD\n2.5\n", 3, "non-negative integer"),
        ("START A\nGOLD\n\n", 3, "non-negative integer"),
        ("HOME A\nGOLD\n2\n", 1, "no START"),
        ("START A\nGOLD\n2\nA GOLD NEXT START\n", 4, "TREASURES keyword is missing"),
        ("START A\nGOLD\n1\nSTART TREASURES NEXT A\nA NEXT START TREASURES GOLD\n", 5,
         "the TREASURES keyword must come right after the node's name"),
        ("START A\nGOLD\n2\nA TREASURES GOLD START\n", 4, "NEXT keyword is missing"),
        ("", 1, "first line must list the nodes"),
        ("START A\n", 2, "missing the treasures line"),
        ("START A\nGOLD\n", 3, "missing the steps line"),
        ("START A A\nGOLD\n2\n", 1, "declared twice"),
        ("START A\nGOLD GOLD\n2\n", 2, "declared twice"),
        ("START NEXT\nGOLD\n2\n", 1, "keyword"),
        ("START A\nGOLD\n2\nTREASURES GOLD NEXT A\n", 4, "node name is missing"),
        ("START A\nGOLD\n2\nA TREASURES GOLD TOLLS NEXT START\n", 4, "toll variant"),
        # the assignment's other files, found beside mazes in a folder (audit 20-B): named
        ("1 T\n2 F\n0\n1 At(START,0)\n", 1, "this is a Davis–Putnam output ('1 T' lines"),
        ("1 -2\n2\n0\n", 1, "this is a Davis–Putnam input (clauses of atom numbers"),
        ("0\n1 At(START,0)\n", 1, "this is a Davis–Putnam output saying NO SOLUTION"),  # review 20
        ("1 2 3\nGOLD\n2\n", 1, "not a maze (a maze's first line names its nodes, START among"),
        ("~At(START,0) V ~At(A,0)\n", 1, "this is a list of clauses over At(…) atoms"),
        ("START B START A\n", 1, "this is a back end's answer (one line: a walk from START)"),
        ("s SATISFIABLE\nv 1 0\n", 1, "this is a solver's answer (s/v lines or a MiniSat"),
        ("UNSAT\n", 1, "this is a solver's answer"),  # (audit 21-B #5: "no START node")
        ("START, A, D, GOAL\n", 1, "this is a back end's answer"),
        ("START A B A\nGOLD\n2\n", 1, "node A is declared twice"),  # a maze after all
    ],
)
def test_errors_carry_the_line(text, line, fragment):
    with pytest.raises(FormatError) as caught:
        parse_maze(text, "bad.txt")
    assert caught.value.file == "bad.txt"
    assert caught.value.line == line
    assert fragment in caught.value.message


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        (
            "START ABCDEF\n\n1\nSTART TREASURES NEXT ABCDEF\nABCDEF TREASURES NEXT START\n",
            1,
            "longer than the course limit (5",
        ),
        (
            "START A\nDIAMONDRING1\n1\nSTART TREASURES NEXT A\nA TREASURES DIAMONDRING1 NEXT\n",
            2,
            "(10 characters)",
        ),
        ("START A\n\n1\nSTART TREASURES NEXT A\n", 1, "node A is declared but has no line"),
        (
            "START A\nGOLD\n1\nSTART TREASURES NEXT A\nA TREASURES NEXT\n",
            2,
            "no node has treasure GOLD",
        ),
        ("START A\nGOLD\n1\nSTART TREASURES GOLD NEXT A\nA TREASURES NEXT\n", 4, "is at START"),
        ("START A\n\n1\nSTART TREASURES NEXT A A\nA TREASURES NEXT\n", 4, "exit A is listed twice"),
        (
            "START A\nGOLD\n1\nSTART TREASURES NEXT A\nA TREASURES GOLD GOLD NEXT\n",
            5,
            "listed twice",
        ),
    ],
)
def test_warnings_and_strict(text, line, fragment):
    maze = parse_maze(text, "w.txt")
    assert [w.line for w in maze.warnings] == [line]
    assert fragment in maze.warnings[0].message
    assert str(maze.warnings[0]).startswith(f"w.txt:{line}: ")
    with pytest.raises(FormatError) as caught:
        parse_maze(text, "w.txt", strict=True)
    assert caught.value.line == line
    assert fragment in caught.value.message


def test_duplicates_are_kept_once():
    maze = parse_maze("START A\nGOLD\n1\nSTART TREASURES NEXT A A\nA TREASURES GOLD GOLD NEXT\n")
    assert maze.exits_of("START") == ["A"]
    assert maze.treasures_of("A") == ["GOLD"]


@given(
    nodes=st.integers(1, 12),
    treasures=st.integers(0, 4),
    steps=st.integers(0, 6),
    seed=st.integers(0, 10_000),
    one_way=st.sampled_from([0.0, 0.3, 1.0]),
)
@settings(max_examples=60, deadline=None)
def test_written_mazes_read_back(nodes, treasures, steps, seed, one_way):
    if treasures and nodes < 2:
        treasures = 0
    maze = generate_maze(nodes, treasures, steps, seed, one_way=one_way)
    again = parse_maze(maze_text(maze))
    assert (again.nodes, again.treasures, again.steps) == (maze.nodes, maze.treasures, maze.steps)
    for node in maze.nodes:
        assert again.exits_of(node) == maze.exits_of(node)
        assert again.treasures_of(node) == maze.treasures_of(node)


TREASURE_MAZES = {
    # file: (nodes, treasures, K) as listed in ../shared/compat/SOURCES.md
    "S2ang__SAT-solver/FrontEndInput.txt": (9, 3, 5),
    "Junxiao-Zhao__Davis-Putnam/FrontEndInput.txt": (9, 3, 5),
    "Junxiao-Zhao__Davis-Putnam/@1bd27a4/FrontEndInput.txt": (3, 2, 3),
    "Anhtrr__Davis-Putnam/FEin-example.txt": (7, 7, 7),
    "Anhtrr__Davis-Putnam/@decdd48/FEin.txt": (9, 4, 5),
    "jkolib__DPLL/fe_in.txt": (9, 3, 5),
    "jkolib__DPLL/@8457dbf/fe_in.txt": (9, 3, 5),
    "jkolib__DPLL/@32d40a7/fe_in.txt": (9, 3, 5),
    "RohanK6__DavisPutnam-Algorithm/src/FrontEnd/small_maze_problem_example.txt": (3, 2, 3),
    "RohanK6__DavisPutnam-Algorithm/src/FrontEnd/big_maze_problem_example.txt": (9, 3, 5),
    "SiyuBi__Davis-Putnam-Implementation/input.txt": (9, 3, 5),
    "AnyaTrivedi__Davis_Putnam_Algorithm/input": (9, 3, 4),
}


@pytest.mark.skipif(not COMPAT.is_dir(), reason="../shared/compat is not beside the checkout")
@pytest.mark.parametrize("relative", sorted(TREASURE_MAZES))
def test_every_treasure_maze_in_compat_reads_cleanly(relative):
    maze = read_maze(COMPAT / relative)
    assert (len(maze.nodes), len(maze.treasures), maze.steps) == TREASURE_MAZES[relative]
    assert maze.warnings == []
    assert "" not in maze.nodes


@pytest.mark.skipif(not COMPAT.is_dir(), reason="../shared/compat is not beside the checkout")
@pytest.mark.parametrize(
    "relative",
    [
        "mpgarate__Artificial-Intelligence/test/ag_simple.txt",
        "jbour20__davisputnam/inputs/in_regular.txt",
        "nickoralias__davis-putnam/big.txt",
    ],
)
def test_toll_mazes_are_refused_with_a_clear_message(relative):
    with pytest.raises(FormatError) as caught:
        read_maze(COMPAT / relative)
    assert "toll variant" in caught.value.message or "not declared" in caught.value.message
    assert caught.value.line is not None


def test_missing_file_is_a_format_error(tmp_path):
    with pytest.raises(FormatError) as caught:
        read_maze(tmp_path / "nope.txt")
    assert "no such file" in caught.value.message


def test_many_long_names_give_one_warning_per_line():
    # a generated maze of 10,000+ nodes names them N10000, …: one line, not one per node
    nodes = ["START", *(f"N{i}" for i in range(9998, 10003))]
    lines = [" ".join(nodes), "", "1"]
    lines += [f"{node} TREASURES NEXT START" for node in nodes]
    maze = parse_maze("\n".join(lines) + "\n", "gen.txt")
    long = [str(w) for w in maze.warnings if "longer than the course limit" in str(w)]
    assert long == [
        "gen.txt:1: node name 'N10000' is longer than the course limit (5 characters), "
        "and so are 2 more"
    ]
