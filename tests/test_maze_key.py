"""maze.key: every key convention real front ends write reads back; duplicates are errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from formats.errors import FormatError
from maze.key import key_from_names, key_text, meaning, parse_key

COMPAT = Path(__file__).resolve().parents[1].parent / "shared" / "compat"
needs_compat = pytest.mark.skipif(not COMPAT.is_dir(), reason="../shared/compat is absent")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("At(C,2)", ("at", "C", 2)),
        ("Has(GOLD,10)", ("has", "GOLD", 10)),
        ("C 2", ("at", "C", 2)),
        (" 0", ("at", "", 0)),
        ("At(A,B,3)", ("at", "A,B", 3)),
        ("Aux(amo,0,1)", ("aux", "Aux(amo,0,1)", 0)),
        ("P", None),
        ("T", None),
        ("hello world", None),
        ("At(C,x)", None),
    ],
)
def test_meaning(name, expected):
    assert meaning(name) == expected


def test_writes_number_first_lines_in_atom_order():
    assert key_text({2: "At(A,0)", 1: "At(START,0)"}) == "1 At(START,0)\n2 At(A,0)\n"


def test_conventions_mixed_in_one_back_matter():
    text = "\n".join(
        [
            "1 At(START,0)",
            "  2 At(A,0)",  # right-aligned
            "27 D 2",  # jkolib: node and time
            "49  0",  # jkolib's phantom empty node
            "Has(GOLD,0) 5",  # name first
            "P 1",  # a DP-only name-first line: not a maze atom
            "free text in the back matter",
            "",
            "73 Aux(amo,0,1)",
        ]
    )
    key = parse_key(text, "k.txt", first_line=10)
    assert key.at == {1: ("START", 0), 2: ("A", 0), 27: ("D", 2), 49: ("", 0)}
    assert key.has == {5: ("GOLD", 0)}
    assert key.aux == {73}
    assert key.line_of[27] == 12
    assert key.steps == 2
    assert key.nodes == ["START", "A", "D", ""]
    assert key.treasures == ["GOLD"]
    assert key.atoms == 73


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("1 At(START,0)\n1 At(A,0)\n", 2, "atom 1 is named twice"),
        ("1 At(START,0)\n2 At(START,0)\n", 2, "At(START,0) is named twice"),
        ("1 Has(G,0)\n2 START 0\n3 Has(G,0)\n", 3, "Has(G,0) is named twice"),
    ],
)
def test_duplicates_are_errors(text, line, fragment):
    with pytest.raises(FormatError) as caught:
        parse_key(text, "k.txt")
    assert caught.value.line == line
    assert fragment in caught.value.message


def test_from_names_table():
    key = key_from_names({1: "At(START,0)", 2: "Has(GOLD,0)", 3: "x"})
    assert key.at == {1: ("START", 0)} and key.has == {2: ("GOLD", 0)}


def test_empty_key():
    key = parse_key("")
    assert key.at == {} and key.steps == -1 and key.atoms == 0


@needs_compat
@pytest.mark.parametrize(
    ("relative", "at_atoms", "has_atoms"),
    [
        ("Junxiao-Zhao__Davis-Putnam/FrontEndOutput.txt", 54, 18),
        ("jkolib__DPLL/fe_out.txt", 54, 0),
        ("jkolib__DPLL/@a0c549c/fe_out.txt", 60, 0),
        ("SiyuBi__Davis-Putnam-Implementation/clauses.txt", 54, 18),
        ("SiyuBi__Davis-Putnam-Implementation/results.txt", 12, 8),
        ("jbour20__davisputnam/outputs/davis_putnam_input.txt", None, None),
        ("RohanK6__DavisPutnam-Algorithm/src/DavisPutnam/input.txt", 54, 18),
    ],
)
def test_keys_of_real_files(relative, at_atoms, has_atoms):
    text = (COMPAT / relative).read_text(encoding="utf-8-sig")
    lines = text.replace("\r\n", "\n").split("\n")
    zero = next(i for i, line in enumerate(lines) if line.strip() == "0")
    if at_atoms is None:  # the toll variant: named as such, at its first Available line
        with pytest.raises(FormatError) as caught:
            parse_key("\n".join(lines[zero + 1 :]), relative, zero + 2)
        first = next(i for i, line in enumerate(lines) if "Available(" in line) + 1
        assert caught.value.line == first
        assert "toll variant" in caught.value.message
        return
    key = parse_key("\n".join(lines[zero + 1 :]), relative, zero + 2)
    assert (len(key.at), len(key.has)) == (at_atoms, has_atoms)
    assert key.steps in (3, 5)


def test_an_atom_named_twice_in_var_comments_names_the_comment_line():
    # `maze decode --cnf` and crosscheck gave no line for a name table (audit 18-G #5)
    from formats.dimacs import parse_dimacs

    text = "c var 1 At(A,0)\nc var 2 Has(G,0)\nc var 3 Has(G,0)\np cnf 3 1\n1 0\n"
    formula = parse_dimacs(text, "k.cnf")
    with pytest.raises(FormatError) as caught:
        key_from_names(formula.names, "k.cnf", formula.name_lines)
    assert (caught.value.file, caught.value.line) == ("k.cnf", 3)


def test_a_node_named_like_the_auxiliary_prefix_is_a_node_in_the_node_time_key():
    # `2 Aux(q 1` was taken for an auxiliary atom, so satkit could not decode its own
    # node-time output of a maze whose node is `Aux(q` (audit 19-C #5)
    from maze.key import meaning

    assert meaning("Aux(q 1") == ("at", "Aux(q", 1)
    assert meaning("At(Aux(q,1)") == ("at", "Aux(q", 1)
    assert meaning("Aux(amo,3,2)") == ("aux", "Aux(amo,3,2)", 0)


def test_satkit_decodes_its_own_node_time_output_for_an_aux_named_node(tmp_path):
    from click.testing import CliRunner

    import satkit

    maze = tmp_path / "aux.txt"
    maze.write_text(
        "START Aux(q\nGOLD\n1\nSTART TREASURES NEXT Aux(q\nAux(q TREASURES GOLD NEXT START\n"
    )
    dp_in, dp_out = tmp_path / "aux.dp", tmp_path / "aux.out"
    run = CliRunner().invoke
    encode = ["maze", "encode", str(maze), "--key", "node-time", "-o", str(dp_in)]
    assert run(satkit.main, encode).exit_code == 0
    assert run(satkit.main, ["dp", str(dp_in), "-o", str(dp_out)]).exit_code == 0
    decoded = run(satkit.main, ["maze", "decode", str(dp_out), "--maze", str(maze)])
    assert (decoded.exit_code, decoded.stdout) == (0, "START Aux(q\n")


# -- numbers int() refuses, and bytes that are not UTF-8 (audit 26-C F3, 26-A F1) -------------

HUGE = "1" * 5000
HUGE_SHOWN = "1" * 30 + "… (5000 digits)"
BEYOND_ATOM = "exceeds the largest variable number 2147483647"
BEYOND_K = (
    "is more than 2,147,483,646, the largest K: a walk of K moves has an At atom for each of its "
    "K+1 times, and DIMACS numbers at most 2,147,483,647 variables"
)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (f"1 At(START,0)\n{HUGE} At(A,1)\n", 2,
         f"atom {HUGE_SHOWN} {BEYOND_ATOM}"),
        (f"1 At(START,0)\nHas(G,1) 0{HUGE}\n", 2,
         f"atom {HUGE_SHOWN} {BEYOND_ATOM}"),
        ("1 At(START,0)\n2147483648 At(A,1)\n", 2,
         f"atom 2147483648 {BEYOND_ATOM}"),
        (f"1 At(START,{HUGE})\n", 1, f"the time of At(START,{HUGE_SHOWN}) {BEYOND_K}"),
        (f"\n1 Has(GOLD,{HUGE})\n", 2, f"the time of Has(GOLD,{HUGE_SHOWN}) {BEYOND_K}"),
        (f"1 START {HUGE}\n", 1, f"the time of START {HUGE_SHOWN} {BEYOND_K}"),
        ("1 At(A,2147483647)\n", 1, f"the time of At(A,2147483647) {BEYOND_K}"),
    ],
)  # fmt: skip
def test_a_number_no_key_can_hold_is_an_error_at_its_line(text, line, message):
    # more than 4,300 digits were a traceback from int()'s limit
    with pytest.raises(FormatError) as caught:
        parse_key(text, "k.txt")
    assert (caught.value.line, caught.value.message) == (line, message)


def test_free_text_with_huge_numbers_is_still_skipped():
    key = parse_key(f"1 At(START,0)\n{HUGE} free text\n2  \u00b2\n3 At(A,2147483646)\n")
    assert key.at == {1: ("START", 0), 3: ("A", 2147483646)}
    assert meaning(" \u0663") is None  # (str.isdigit takes it; int() made it a 3)


def test_a_byte_that_is_not_utf8_is_an_error_only_in_a_line_naming_an_atom():
    # the DP readers keep such bytes in the back matter, which `satkit dp` copies
    key = parse_key("1 At(START,0)\n# g\udce9n\udce9r\udce9\n12 caf\udce9\nP\udce9 4\n", "k.txt")
    assert key.at == {1: ("START", 0)}
    for text, line in [
        ("1 At(START,0)\n2 At(\udcc0,1)\n", 2),
        ("1 At(START,0)\n2 \udcc0 1\n", 2),
        ("1 At(START,0)\n\nHas(G\udcc0,0) 3\n", 3),
        ("1 At(START,\udcc0\n", 1),  # (cut short, and the byte: the byte is said first)
    ]:
        with pytest.raises(FormatError) as caught:
            parse_key(text, "k.txt")
        assert (caught.value.line, caught.value.message) == (line, "not UTF-8 text (byte 0xc0)")


def test_maze_decode_says_so_in_one_line(tmp_path):
    from click.testing import CliRunner

    from satkit import main

    answer = tmp_path / "k.txt"
    for key, message in [
        (f"{HUGE} At(START,0)", f"atom {HUGE_SHOWN} {BEYOND_ATOM}"),
        (f"1 At(START,{HUGE})", f"the time of At(START,{HUGE_SHOWN}) {BEYOND_K}"),
    ]:
        answer.write_text(f"1 T\n0\n{key}\n")
        result = CliRunner().invoke(main, ["maze", "decode", str(answer)])
        assert (result.exit_code, result.stdout) == (1, "")
        assert result.stderr == f"error: {answer}:3: {message}\n"
