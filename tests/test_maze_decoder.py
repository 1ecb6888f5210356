"""maze.decoder: reading paths, turning valuations into walks, and refusing what is not one."""

from __future__ import annotations

import pytest

from formats.errors import FormatError
from formats.formula import Formula
from maze.cnf import encode
from maze.decoder import (
    Decoded,
    decode,
    first_time_all_held,
    parse_path_text,
    path_from_valuation,
)
from maze.key import Key, parse_key
from maze.parser import parse_maze

SMALL = parse_maze(
    "START A B\nGOLD WAND\n3\n"
    "START TREASURES NEXT A B\nA TREASURES GOLD NEXT START\nB TREASURES WAND NEXT START\n"
)
CNF = encode(SMALL)
KEY = parse_key(CNF.key_text())


def valuation_for(path, held_from=None):
    """At atoms of ``path`` true; Has atoms true from the times given (treasure -> time)."""
    values = {atom: False for atom in range(1, CNF.nvars + 1)}
    for time, node in enumerate(path):
        values[CNF.atoms.at(node, time)] = True
    for treasure, since in (held_from or {}).items():
        for time in range(since, SMALL.steps + 1):
            values[CNF.atoms.has(treasure, time)] = True
    return values


GOOD = valuation_for(["START", "A", "START", "B"], {"GOLD": 1, "WAND": 3})


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("START A B\n", ["START", "A", "B"]),
        ("\ufeffSTART C G H G H", ["START", "C", "G", "H", "G", "H"]),
        ("START A START B \r\n", ["START", "A", "START", "B"]),
        ("START, A, D, E, GOAL\n", ["START", "A", "D", "E", "GOAL"]),
        ("\n\nSTART\n\n", ["START"]),
        ("NO SOLUTION\n", None),
        ("No solution.\n", None),
    ],
)
def test_parse_path_text(text, path):
    assert parse_path_text(text) == path


@pytest.mark.parametrize(("text", "line"), [("", 1), ("  \n", 1), ("START A\nSTART B\n", 2)])
def test_parse_path_text_errors(text, line):
    with pytest.raises(FormatError) as caught:
        parse_path_text(text, "p.txt")
    assert caught.value.line == line


def test_path_from_valuation():
    assert path_from_valuation(GOOD, KEY, "v") == ["START", "A", "START", "B"]


def test_missing_atoms_count_as_false():
    partial = {atom: True for atom, value in GOOD.items() if value}
    assert path_from_valuation(partial, KEY, "v") == ["START", "A", "START", "B"]


def test_two_places_points_at_the_key_line():
    values = dict(GOOD)
    values[CNF.atoms.at("B", 1)] = True
    with pytest.raises(FormatError) as caught:
        path_from_valuation(values, KEY, "v")
    assert "at A and B at time 1" in caught.value.message
    assert caught.value.line == CNF.atoms.at("B", 1)  # key line n names atom n here


def test_first_time_all_held():
    assert first_time_all_held(GOOD, KEY) == 3
    assert first_time_all_held(valuation_for(["START"] * 4, {"GOLD": 0, "WAND": 2}), KEY) == 2
    assert first_time_all_held(valuation_for(["START"] * 4, {"GOLD": 1}), KEY) is None
    assert first_time_all_held(GOOD, parse_key("1 At(START,0)\n")) is None


def test_a_names_key_cut_mid_line_is_refused_not_skipped():
    # the key comes last in a DP file; a line cut mid-name was skipped as free text and the
    # walk read up to the times left (audit 21-B #1). (Refusing every answer that uses an
    # atom above the key's highest refused valid CNFs declaring one variable more: review 21.)
    # cut in the middle of a line: no longer skipped as free text
    with pytest.raises(FormatError) as caught:
        parse_key("1 At(START,0)\n2 At(A,\n", "out", first_line=7)
    assert (caught.value.line, caught.value.message) == (
        8, "At(A, is not an atom name At(NODE,TIME) (the key cut short?)")  # fmt: skip
    with pytest.raises(FormatError, match=r"Has\(GOLD is not an atom name Has\(TREASURE,TIME\)"):
        parse_key("3 Has(GOLD\n")


def test_decode_with_every_key_source():
    for source in (
        CNF.key_text(),
        KEY,
        Formula(names=CNF.names()),
        Formula(back_matter=CNF.key_text()),
    ):
        decoded = decode(GOOD, source, "v", maze=SMALL, clauses=CNF.clause_list())
        assert decoded == Decoded(["START", "A", "START", "B"], decoded.key, 3)
        assert decoded.text() == "START A START B"


def test_decode_without_key():
    for source in (None, "", Formula()):
        with pytest.raises(FormatError, match="no key names the At"):
            decode(GOOD, source, "v")


def test_decode_no_solution():
    assert decode(None, None, "v").text() == "NO SOLUTION"
    key_k2 = encode(SMALL.with_steps(2)).key_text()
    assert decode(None, key_k2, "v", maze=SMALL).path is None  # no walk with K=2
    with pytest.raises(FormatError, match="has a walk with K=3"):
        decode(None, CNF.key_text(), "v", maze=SMALL.with_steps(2))  # the key says K=3


def test_decode_trim():
    decoded = decode(
        valuation_for(["START", "B", "START", "A"], {"WAND": 1, "GOLD": 3}), KEY, "v", trim=True
    )
    assert decoded.path == ["START", "B", "START", "A"]
    assert decoded.steps == 3


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("START , START", ["START", ",", "START"]),  # a node named `,` (audit 19-C #5)
        ("START A, B", ["START", "A,", "B"]),
        ("START, A, B", ["START", "A", "B"]),
        ("START, ,, START,", ["START", ",", "START"]),
        ("START", ["START"]),
        ("START,", ["START"]),
    ],
)
def test_commas_separate_nodes_only_in_the_comma_form(text, path):
    assert parse_path_text(text) == path


def test_checking_the_key_against_the_maze_builds_the_node_set_once():
    # set(maze.nodes) was built once per key node: `maze decode --maze` took 400 s more at
    # 100,000 nodes (audit 19-H #1). Counted, not timed.
    import builtins
    from types import SimpleNamespace

    import maze.decoder as decoder

    calls = []

    class CountingSet(builtins.set):
        def __init__(self, *args):
            calls.append(1)
            super().__init__(*args)

    nodes = [f"N{i}" for i in range(300)]
    maze = SimpleNamespace(nodes=nodes, name="m")
    decoder.set = CountingSet
    try:
        decoder.check_key_fits(maze, SimpleNamespace(nodes=list(reversed(nodes))), "f")
    finally:
        del decoder.set
    assert len(calls) == 1


def test_a_key_whose_at_times_skip_a_time_is_refused_at_once():
    # one bad key line made K 10^8: decoding built K + 1 lists, 53 s and 7 GB before its
    # error, and hung for larger K (audit 20-C #1)
    key_text = "1 At(START,0)\n2 At(A,1000000)\n"
    assert parse_key(key_text).missing_time() == 1
    with pytest.raises(FormatError) as info:
        decode({1: True, 2: False}, key_text, "x.out", key_line=4)
    assert (info.value.line, info.value.message) == (
        5, "the key names At atoms up to time 1000000 but none of time 1: it is no key of a walk"
    )
    assert parse_key(CNF.key_text()).missing_time() is None  # a real key names every time
    # the walk reader needs memory for the atoms, not for K
    huge = parse_key("1 At(START,0)\n2 At(START,1)\n3 At(A,2147483646)\n")
    with pytest.raises(FormatError, match="no At"):
        path_from_valuation({1: True, 2: True}, huge, "x.out")


def test_a_walk_encoded_for_more_moves_answers_the_maze_only_within_its_k():
    # a 7-move walk was accepted for a maze of K=5 with a note (audit 20-C #4): it answers
    # the maze only when its first K moves already hold every treasure
    five = encode(SMALL.with_steps(5))
    key = parse_key(five.key_text())

    def valuation(path, held_from):
        values = {atom: False for atom in range(1, five.nvars + 1)}
        for time, node in enumerate(path):
            values[five.atoms.at(node, time)] = True
        for treasure, since in held_from.items():
            for time in range(since, 6):
                values[five.atoms.has(treasure, time)] = True
        return values

    early = ["START", "A", "START", "B", "START", "A"]  # both held after 3 moves: K=3 allows it
    decoded = decode(valuation(early, {"GOLD": 1, "WAND": 3}), key, "x.out", maze=SMALL)
    assert decoded.path == early[:4] and decoded.steps == 5  # the maze's walk: K=3 moves
    late = ["START", "A", "START", "A", "START", "B"]  # WAND only after 5 moves
    with pytest.raises(FormatError) as info:
        decode(valuation(late, {"GOLD": 1, "WAND": 5}), key, "x.out", maze=SMALL)
    assert info.value.message.startswith(
        "the walk START A START A START B holds every treasure only after 5 moves, and "
    )
    assert info.value.message.endswith(
        "allows K=3 (the answer was encoded with K=5: -k 5 checks it against the maze with that K)"
    )


def test_no_solution_beside_a_key_source_naming_no_at_atom_is_refused_as_a_model_is():
    # a zebra CNF's UNSAT decoded to NO SOLUTION, and with a maze was "confirmed" for it,
    # while its SAT answer was refused (audit 28-C #1)
    for source in (None, "", "free text only\n"):  # nothing names an atom: a bare `0`
        assert decode(None, source, "v").text() == "NO SOLUTION"
    assert decode(None, None, "v", maze=SMALL.with_steps(2)).text() == "NO SOLUTION"
    no_maze_key = ("1 Owner(1,Ana)\n2 Owner(1,Ben)\n", "1 P\n", "1 Has(GOLD,3)\n", Key(), Formula())
    for source in no_maze_key:
        for maze in (None, SMALL):
            with pytest.raises(FormatError, match="no key names the At") as caught:
                decode(None, source, "v", maze=maze)
            assert (caught.value.file, caught.value.line) == ("v", None)
            with pytest.raises(FormatError, match="no key names the At"):
                decode(GOOD, source, "v", maze=maze)  # (as the model is)
