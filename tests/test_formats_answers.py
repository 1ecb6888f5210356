"""formats.answers: telling an answer's kind, reading its text, checking it fits its CNF."""

from __future__ import annotations

import pytest

from formats.answers import (
    check_model,
    check_solved_header,
    looks_like_result,
    read_answer_text,
    read_dp_answer,
)
from formats.errors import FormatError


@pytest.mark.parametrize(
    ("text", "result"),
    [
        ("s SATISFIABLE\nv 1 -2 0\n", True),
        ("c comment first\ns UNSATISFIABLE\n", True),
        ("\n\nSAT\n1 -2 0\n", True),
        ("UNSAT\n", True),
        ("INDET\n", True),
        ("1 T\n2 F\n0\nkey\n", False),
        ("0\nback matter\n", False),
        ("", False),
    ],
)
def test_looks_like_result(text, result):
    assert looks_like_result(text) is result


def test_read_answer_text_allows_bad_bytes_only_on_a_solvers_comment_lines(tmp_path):
    ok = tmp_path / "ok.out"
    ok.write_bytes(b"c reading 'caf\xe9.cnf'\ns SATISFIABLE\nv 1 0\n")
    assert read_answer_text(ok, "ok.out").splitlines()[1] == "s SATISFIABLE"
    bad = tmp_path / "bad.out"
    bad.write_bytes(b"s SATISFIABLE\nv 1 \xe9 0\n")
    with pytest.raises(FormatError) as caught:
        read_answer_text(bad, "bad.out")
    assert (caught.value.line, caught.value.message) == (2, "not UTF-8 text (byte 0xe9)")


def test_check_solved_header():
    check_solved_header(["found 'p cnf 3 4' header"], 3, 4, "a.out", "x.cnf")
    check_solved_header(["parsed 'p cnf 2 4' header"], 3, 4, "a.out", "x.cnf")  # fewer vars
    check_solved_header(["no header named"], 3, 4, "a.out", "x.cnf")
    with pytest.raises(FormatError) as caught:
        check_solved_header(["c found 'p cnf 3 5' header"], 3, 4, "a.out", "x.cnf")
    assert caught.value.message == (
        "the solver read 'p cnf 3 5', and x.cnf is 'p cnf 3 4': this answer is for another CNF"
    )


def test_check_model_partial_and_negative():
    check_model([[1, -2], [-3]], {1: True, 3: False}, "m")
    with pytest.raises(FormatError, match="clause 2") as caught:
        check_model([[1], [-3]], {1: True}, "m")  # 3 missing: -3 is not satisfied
    # an answer for another CNF (or cut short) is said to be one (audit 18-H #1)
    assert caught.value.message.endswith(
        "the answer gives variable 3 no value (it names variables up to 1): it is for another"
        " CNF, or cut short"
    )
    with pytest.raises(FormatError) as caught:
        check_model([[1], [-1, 2]], {1: True, 2: False}, "m")  # every variable set: wrong
    assert caught.value.message == "the model does not satisfy clause 2 of the CNF: -1 2"
    with pytest.raises(FormatError, match=r"\(empty clause\)"):
        check_model([[]], {}, "m")


def test_check_model_refuses_variables_the_cnf_does_not_have():
    # a model of the compact CNF decoded against the assignment CNF passed with exit 0,
    # though crosscheck calls such a model invalid (audit 21-B #2)
    check_model([[1], [2]], {1: True, 2: True}, "m", nvars=2)
    with pytest.raises(FormatError) as caught:
        check_model([[1], [2]], {1: True, 2: True, 999: False}, "m", nvars=2)
    assert caught.value.message == (
        "the model gives variable 999 a value, but the CNF has 2 variables: it is for another CNF"
    )


def test_check_model_says_where_the_falsified_clause_came_from():
    with pytest.raises(FormatError) as caught:
        check_model([[1], [2, 3]], {1: True, 2: False, 3: False}, "m", source=lambda n: f"#{n}")
    assert caught.value.message == "the model does not satisfy clause 2 of the CNF (#2): 2 3"


def test_a_bad_byte_is_found_on_its_line_whatever_the_line_ends(tmp_path):
    # a lone CR ends a line for every reader: the byte was reported on line 1, or, in a
    # file starting with a `c` line, taken for part of that comment (audit 24-A #2)
    for end in ("\n", "\r\n", "\r"):
        dp = tmp_path / "a.dpout"
        dp.write_bytes(end.join(["1 T", "2 F", "3 \xe9"]).encode("latin-1") + end.encode())
        with pytest.raises(FormatError) as caught:
            read_answer_text(dp, "a.dpout")
        assert (caught.value.line, caught.value.message) == (3, "not UTF-8 text (byte 0xe9)")
        result = tmp_path / "a.out"
        result.write_bytes(end.join(["c cadical", "s SATISFIABLE", "v 1 \xff 0"]).encode("latin-1"))
        with pytest.raises(FormatError) as caught:
            read_answer_text(result, "a.out")
        assert (caught.value.line, caught.value.message) == (3, "not UTF-8 text (byte 0xff)")


def test_a_dp_outputs_back_matter_may_hold_bytes_that_are_not_utf8(tmp_path):
    # `satkit dp` copies a cp1252 back matter byte for byte (with a warning), and the back
    # end refused what it wrote (audit 26-A F1): a warning now, as dp gives; the valuation
    # must still be UTF-8 text
    answer = tmp_path / "f1.dp"
    answer.write_bytes(b"1 T\n2 F\n0\n1 At(START,0)\n# g\xe9n\xe9r\xe9\n")
    text = read_answer_text(answer, "f1.dp")
    output = read_dp_answer(text, "f1.dp")
    assert output.valuation == {1: True, 2: False}
    assert [str(w) for w in output.warnings] == [
        "f1.dp:5: the back matter is not UTF-8 text (byte 0xe9)"
    ]
    answer.write_bytes(b"1 T\n2 \xe9\n0\n1 At(START,0)\n# g\xe9n\xe9r\xe9\n")
    with pytest.raises(FormatError) as caught:
        read_answer_text(answer, "f1.dp")
    assert (caught.value.line, caught.value.message) == (2, "not UTF-8 text (byte 0xe9)")
    # a solver's result keeps its rule: such a byte only on its `c` lines
    result = tmp_path / "a.out"
    result.write_bytes(b"s SATISFIABLE\nv 1 0\n0\nx\xe9\n")
    with pytest.raises(FormatError) as caught:
        read_answer_text(result, "a.out")
    assert (caught.value.line, caught.value.message) == (4, "not UTF-8 text (byte 0xe9)")


def test_the_back_end_reads_what_satkit_dp_wrote_from_a_cp1252_back_matter(tmp_path):
    # the assignment's three programs in a row: front end, DP, back end (audit 26-A F1)
    from click.testing import CliRunner

    from satkit import main

    maze = tmp_path / "m.txt"
    maze.write_text("START A\nGOLD\n1\nSTART TREASURES NEXT A\nA TREASURES GOLD NEXT START\n")
    clauses, output = tmp_path / "m.cl", tmp_path / "m.dp"
    encoded = CliRunner().invoke(main, ["maze", "encode", str(maze), "-o", str(clauses)])
    assert encoded.exit_code == 0
    with clauses.open("ab") as handle:  # clauses to line 12, the key on lines 13-18
        handle.write(b"# g\xe9n\xe9r\xe9 par mon front end\n")
    done = CliRunner().invoke(main, ["dp", str(clauses), "-o", str(output)])
    assert done.exit_code == 0
    assert done.stderr == (
        f"warning: {clauses}:19: the back matter is not UTF-8 text (byte 0xe9)\n"
    )
    assert output.read_bytes() == (  # atoms 1..6, the line 0, the key, the comment
        b"1 T\n2 F\n3 F\n4 T\n5 F\n6 T\n0\n1 At(START,0)\n2 At(A,0)\n3 At(START,1)\n"
        b"4 At(A,1)\n5 Has(GOLD,0)\n6 Has(GOLD,1)\n# g\xe9n\xe9r\xe9 par mon front end\n"
    )
    decoded = CliRunner().invoke(main, ["maze", "decode", str(output), "--maze", str(maze)])
    assert (decoded.exit_code, decoded.stdout) == (0, "START A\n")
    assert decoded.stderr == (
        f"warning: {output}:14: the back matter is not UTF-8 text (byte 0xe9)\n"
    )
    # an external solver's answer, decoded with the DP input's key: the warning does not
    # say the byte is copied, which only `dp` and `convert` do
    result = tmp_path / "m.res"
    result.write_text("SAT\n1 -2 -3 4 -5 6 0\n")
    decoded = CliRunner().invoke(main, ["maze", "decode", str(result), "--cnf", str(clauses)])
    assert (decoded.exit_code, decoded.stdout) == (0, "START A\n")
    warned = f"warning: {clauses}:19: the back matter is not UTF-8 text (byte 0xe9)\n"
    assert decoded.stderr == warned
    # in a key line that names an atom, the byte is an error at its line
    output.write_bytes(output.read_bytes().replace(b"4 At(A,1)", b"4 At(\xc0,1)"))
    refused = CliRunner().invoke(main, ["maze", "decode", str(output), "-q"])
    assert (refused.exit_code, refused.stdout) == (1, "")
    assert refused.stderr == f"error: {output}:11: not UTF-8 text (byte 0xc0)\n"


def test_a_solved_header_of_thousands_of_digits_is_no_traceback():
    # int() refuses more than 4,300 digits (audit 26-C F3)
    huge = "1" * 5000
    with pytest.raises(FormatError) as caught:
        check_solved_header([f"found 'p cnf {huge} 334' header"], 72, 334, "a.out", "x.cnf")
    assert caught.value.message == (
        f"the solver read 'p cnf {'1' * 30}… (5000 digits) 334', and x.cnf is 'p cnf 72 334': "
        "this answer is for another CNF"
    )
    with pytest.raises(FormatError, match="'p cnf 72 1111"):
        check_solved_header([f"found 'p cnf 72 {huge}' header"], 72, 334, "a.out", "x.cnf")
    check_solved_header(["found 'p cnf 0072 00334' header"], 72, 334, "a.out", "x.cnf")
