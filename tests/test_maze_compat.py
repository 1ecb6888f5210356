"""Compatibility with 11 real implementations (../shared/compat), in both directions.

- Their maze files -> our front end: the listed clause/atom counts.
- Their clause files -> our DPLL: the listed SAT/UNSAT.
- Their DP outputs -> our back end: a path that validates and equals the path
  they committed, when they committed one.
- Their front ends' clauses -> our DPLL -> our back end: a valid path in their maze.
- What we write: the key lines their files use, the path line they print.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dpll import Solver
from formats.assignment import dp_output_text, parse_dp_input, parse_dp_output, read_dp_input
from formats.errors import FormatError
from maze.cnf import encode
from maze.decoder import decode, parse_path_text
from maze.parser import read_maze
from maze.validator import path_problems
from satkit import main

M1 = "Junxiao-Zhao__Davis-Putnam/FrontEndInput.txt"
M1S = "jkolib__DPLL/fe_in.txt"
M3 = "Junxiao-Zhao__Davis-Putnam/@1bd27a4/FrontEndInput.txt"


def _text(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


@pytest.mark.parametrize(
    ("relative", "clauses", "atoms"),
    [
        (M1, 334, 72),
        (M3, 46, 20),
        (M1S, 334, 72),
        ("S2ang__SAT-solver/FrontEndInput.txt", 334, 72),
        ("jkolib__DPLL/@8457dbf/fe_in.txt", 334, 72),
        ("jkolib__DPLL/@32d40a7/fe_in.txt", 334, 72),  # `G  H`: no phantom node here
        ("RohanK6__DavisPutnam-Algorithm/src/FrontEnd/small_maze_problem_example.txt", 46, 20),
        ("RohanK6__DavisPutnam-Algorithm/src/FrontEnd/big_maze_problem_example.txt", 334, 72),
        ("SiyuBi__Davis-Putnam-Implementation/input.txt", 334, 72),
        ("AnyaTrivedi__Davis_Putnam_Algorithm/input", 277, 60),  # M2, K=4
        ("Anhtrr__Davis-Putnam/@decdd48/FEin.txt", 352, 78),  # M4, 4 treasures, messy blanks
        ("Anhtrr__Davis-Putnam/FEin-example.txt", 386, 112),  # M5
    ],
)
def test_our_front_end_reads_their_mazes(compat, relative, clauses, atoms):
    result = CliRunner().invoke(main, ["maze", "encode", str(compat / relative)])
    assert result.exit_code == 0 and result.stderr == ""
    formula = parse_dp_input(result.stdout, "<satkit maze encode>")
    assert (len(formula.clauses), formula.nvars) == (clauses, atoms)


CLAUSE_FILES = {
    "S2ang__SAT-solver/FrontEndOutput.txt": False,
    "Junxiao-Zhao__Davis-Putnam/FrontEndOutput.txt": True,
    "Junxiao-Zhao__Davis-Putnam/@1bd27a4/FrontEndOutput.txt": True,
    "Junxiao-Zhao__Davis-Putnam/@9665254/dp_input.txt": True,
    "Junxiao-Zhao__Davis-Putnam/@5175ecb/dp_input.txt": True,
    "jkolib__DPLL/fe_out.txt": True,
    "jkolib__DPLL/@a0c549c/fe_out.txt": True,
    "jkolib__DPLL/@502bb86/fe_out.txt": True,
    "jkolib__DPLL/@21fb2fb/fe_out.txt": True,
    "RohanK6__DavisPutnam-Algorithm/src/DavisPutnam/input.txt": True,
    "RohanK6__DavisPutnam-Algorithm/@d602db6/src/FrontEnd/output.txt": True,
    "SiyuBi__Davis-Putnam-Implementation/clauses.txt": True,
    "mpgarate__Artificial-Intelligence/test/dp_trivial.txt": True,
    "mpgarate__Artificial-Intelligence/test/dp_normal.txt": True,
    "mpgarate__Artificial-Intelligence/test/dp_hw5.txt": True,
    "mpgarate__Artificial-Intelligence/test/dp_midterm.txt": True,
    "mpgarate__Artificial-Intelligence/test/dp_sample_midterm.txt": True,
    "mpgarate__Artificial-Intelligence/io/game.txt": True,
    "jbour20__davisputnam/outputs/davis_putnam_input.txt": True,
    "Nick-Stewart7__Davis-Putnam-Solver/examp.txt": True,
    "Nick-Stewart7__Davis-Putnam-Solver/input1.txt": True,
    "Nick-Stewart7__Davis-Putnam-Solver/input2.txt": True,
    "Nick-Stewart7__Davis-Putnam-Solver/input3.txt": False,
}


@pytest.mark.parametrize("relative", sorted(CLAUSE_FILES))
def test_our_dpll_reads_their_clause_files(compat, relative):
    formula = read_dp_input(compat / relative)
    with Solver(bootstrap_with=formula.clauses) as solver:
        verdict = solver.solve()
        assert verdict is CLAUSE_FILES[relative]
        if verdict:
            model = set(solver.get_model())
            assert all(any(lit in model for lit in clause) for clause in formula.clauses)


@pytest.mark.parametrize("relative", sorted(CLAUSE_FILES))
def test_satkit_dp_reads_their_clause_files(compat, relative, tmp_path):
    result = CliRunner().invoke(main, ["dp", str(compat / relative)])
    assert result.exit_code in (0, 10, 20), result.output
    output = parse_dp_output(result.stdout_bytes.decode("utf-8"), "dp")  # .stdout drops CRs
    assert output.satisfiable is CLAUSE_FILES[relative]
    theirs = read_dp_input(compat / relative).back_matter
    # (a last line without its line end gets one, as their programs add it: audit 22-B #1)
    ending = "" if not theirs or theirs.endswith("\n") else "\r\n" if "\r\n" in theirs else "\n"
    assert output.back_matter == theirs + ending


def test_their_invalid_clause_file_is_refused(compat):
    with pytest.raises(FormatError) as caught:
        read_dp_input(compat / "RohanK6__DavisPutnam-Algorithm/@e0a6306/src/DavisPutnam/input.txt")
    assert caught.value.line == 1


# their DP output, the maze it belongs to, the back-end output they committed (or None)
DP_OUTPUTS = [
    (
        "Junxiao-Zhao__Davis-Putnam/BackEndInput.txt",
        M1,
        "Junxiao-Zhao__Davis-Putnam/BackEndOutput.txt",
    ),
    (
        "Junxiao-Zhao__Davis-Putnam/@1bd27a4/BackEndInput.txt",
        M3,
        "Junxiao-Zhao__Davis-Putnam/@1bd27a4/BackEndOutput.txt",
    ),
    ("jkolib__DPLL/dpll_out.txt", M1S, "jkolib__DPLL/be_out.txt"),
    (
        "jkolib__DPLL/@559de43/dpll_out.txt",
        "jkolib__DPLL/@32d40a7/fe_in.txt",
        "jkolib__DPLL/be_out.txt",
    ),
    (
        "RohanK6__DavisPutnam-Algorithm/@d602db6/src/DavisPutnam/output.txt",
        "RohanK6__DavisPutnam-Algorithm/src/FrontEnd/small_maze_problem_example.txt",
        "RohanK6__DavisPutnam-Algorithm/@d602db6/src/BackEnd/output.txt",
    ),
    ("SiyuBi__Davis-Putnam-Implementation/results.txt", M3, None),
]


@pytest.mark.parametrize(("dp_out", "maze", "committed"), DP_OUTPUTS)
def test_our_back_end_decodes_their_dp_outputs(compat, dp_out, maze, committed):
    result = CliRunner().invoke(
        main, ["maze", "decode", str(compat / dp_out), "--maze", str(compat / maze)]
    )
    assert result.exit_code == 0, result.output
    path = parse_path_text(result.stdout)
    assert path_problems(read_maze(compat / maze), path) == []
    if committed is not None:
        assert path == parse_path_text(_text(compat / committed))
    trimmed = CliRunner().invoke(
        main, ["maze", "decode", str(compat / dp_out), "--maze", str(compat / maze), "--trim"]
    )
    assert result.stdout.startswith(trimmed.stdout.rstrip("\n"))


@pytest.mark.parametrize(("dp_out", "maze", "committed"), DP_OUTPUTS)
def test_their_whole_keys_do_not_look_cut_short(compat, dp_out, maze, committed):
    # the signs of a key cut at a line end (maze.key.cut_short) hold for none of theirs,
    # jkolib's `N I` keys, which leave the Has atoms unnamed, included
    result = CliRunner().invoke(main, ["maze", "decode", str(compat / dp_out)])
    assert result.exit_code == 0, result.output
    assert "cut short" not in result.stderr
    if committed is not None:
        assert parse_path_text(result.stdout) == parse_path_text(_text(compat / committed))


@pytest.mark.parametrize(
    ("dp_out", "fragment"),
    [
        ("S2ang__SAT-solver/DPOutput.txt", "no line '0'"),  # truncated
        ("Junxiao-Zhao__Davis-Putnam/@5175ecb/dp_output.txt", "must be T or F"),  # `6 N`
        (
            "jbour20__davisputnam/outputs/davis_putnam_output.txt",
            ":170: Available(GOLD,0): this key is of the toll variant",
        ),  # toll variant: named as such, not blamed on the valuation
    ],
)
def test_their_invalid_dp_outputs_are_errors(compat, dp_out, fragment):
    result = CliRunner().invoke(main, ["maze", "decode", str(compat / dp_out)])
    assert result.exit_code == 1
    assert fragment in result.stderr and result.stderr.count("\n") == 1


def test_their_wrong_unsat_output_is_caught_with_the_maze(compat):
    wrong = compat / "RohanK6__DavisPutnam-Algorithm/@20fd74f/src/DavisPutnam/DavisPutnamOutput.txt"
    maze = compat / "RohanK6__DavisPutnam-Algorithm/src/FrontEnd/big_maze_problem_example.txt"
    alone = CliRunner().invoke(main, ["maze", "decode", str(wrong)])
    assert alone.exit_code == 0 and alone.stdout == "NO SOLUTION\n"  # the format says so
    checked = CliRunner().invoke(main, ["maze", "decode", str(wrong), "--maze", str(maze)])
    assert checked.exit_code == 1 and "has a walk" in checked.stderr


# their front end's clauses, our DPLL, our back end
THEIR_FRONT_ENDS = [
    ("Junxiao-Zhao__Davis-Putnam/FrontEndOutput.txt", M1),
    ("Junxiao-Zhao__Davis-Putnam/@1bd27a4/FrontEndOutput.txt", M3),
    ("jkolib__DPLL/fe_out.txt", M1S),  # key: `n NODE I`, At atoms only, hash order
    ("jkolib__DPLL/@a0c549c/fe_out.txt", M1S),  # with the phantom empty node
    ("RohanK6__DavisPutnam-Algorithm/src/DavisPutnam/input.txt", M1),
    ("RohanK6__DavisPutnam-Algorithm/@d602db6/src/FrontEnd/output.txt", M3),
    ("SiyuBi__Davis-Putnam-Implementation/clauses.txt", M1),  # Has atoms numbered before At
]


@pytest.mark.parametrize(("clause_file", "maze"), THEIR_FRONT_ENDS)
def test_their_front_end_our_solver_our_back_end(compat, clause_file, maze):
    formula = read_dp_input(compat / clause_file)
    with Solver(bootstrap_with=formula.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    valuation = {abs(lit): lit > 0 for lit in model}
    text = dp_output_text(valuation, formula.back_matter)
    output = parse_dp_output(text, "ours")
    decoded = decode(
        output.valuation,
        output.back_matter,
        "ours",
        maze=read_maze(compat / maze),
        clauses=formula.clauses,
    )
    assert path_problems(read_maze(compat / maze), decoded.path) == []


def test_the_buggy_front_end_is_unsatisfiable_and_decodes_to_no_solution(compat):
    formula = read_dp_input(compat / "S2ang__SAT-solver/FrontEndOutput.txt")
    with Solver(bootstrap_with=formula.clauses) as solver:
        assert solver.solve() is False
    text = dp_output_text(None, formula.back_matter)
    result = CliRunner().invoke(main, ["maze", "decode", "-"], input=text)
    assert result.exit_code == 0 and result.stdout == "NO SOLUTION\n"
    # the reason it is unsatisfiable, said as with --maze or --cnf (where it is an error)
    assert result.stderr == (
        "warning: <stdin>:59: Has(GOLD,0) is named twice in the key (atoms 55 and 59)\n"
    )
    maze = compat / "S2ang__SAT-solver/FrontEndInput.txt"
    checked = CliRunner().invoke(main, ["maze", "decode", "-", "--maze", str(maze)], input=text)
    assert checked.exit_code == 1 and "named twice in the key (atoms 55 and 59)" in checked.stderr


@pytest.mark.parametrize(
    "clause_file",
    [
        "Junxiao-Zhao__Davis-Putnam/FrontEndOutput.txt",
        "RohanK6__DavisPutnam-Algorithm/src/DavisPutnam/input.txt",
    ],
)
def test_we_write_their_key_lines(compat, clause_file):
    """Our At key lines are byte for byte theirs (same numbering, same `n At(N,I)` form)."""
    ours = encode(read_maze(compat / M1)).key_text().splitlines()
    theirs = read_dp_input(compat / clause_file).back_matter.splitlines()
    assert ours[:54] == [line.rstrip() for line in theirs[:54]]
    assert {line.split()[1] for line in ours[54:]} == {line.split()[1] for line in theirs[54:72]}


def test_we_write_the_path_line_they_write(compat):
    """`START C G H G H`: one line, single spaces (theirs adds a BOM and drops the newline)."""
    result = CliRunner().invoke(
        main, ["maze", "decode", str(compat / "Junxiao-Zhao__Davis-Putnam/BackEndInput.txt")]
    )
    committed = _text(compat / "Junxiao-Zhao__Davis-Putnam/BackEndOutput.txt").lstrip("\ufeff")
    assert result.stdout == committed + "\n"


@pytest.mark.parametrize(
    ("clause_file", "answer", "note"),
    [
        (  # a buggy key over good clauses (seed 001: the back matter is ignored)
            "S2ang__SAT-solver/FrontEndOutput.txt",
            "UNSAT",
            "FrontEndOutput.txt:411: the key is not used (Has(GOLD,0) is named twice in the key",
        ),
        (  # the toll variant's key: its walks are not ours to validate
            "jbour20__davisputnam/outputs/davis_putnam_input.txt",
            "SAT",
            "davis_putnam_input.txt:785: the key is not used (Available(GOLD,0): this key is of"
            " the toll variant",
        ),
    ],
)
def test_crosscheck_checks_clauses_whose_key_it_cannot_use_as_a_plain_cnf(
    compat, clause_file, answer, note
):
    args = ["crosscheck", str(compat / clause_file), "--solvers", "dpll,minisat22", "--json", "-"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout.splitlines()[0])
    assert (record["kind"], record["verdict"], record["answer"]) == ("cnf", "agree", answer)
    assert any(note in text for text in record["notes"])
    assert note in result.stderr
    # a maze given for it is not used, and the note says why (not "names no At atoms")
    maze = compat / "S2ang__SAT-solver/FrontEndInput.txt"
    result = CliRunner().invoke(main, [*args, "--maze", str(maze)])
    assert "not used: the CNF's key is not used" in result.stderr
    assert "names no At atoms" not in result.stderr


def test_crosscheck_checks_a_cnf_whose_var_names_name_an_atom_twice_as_plain(tmp_path):
    cnf = tmp_path / "dupnames.cnf"
    cnf.write_text("c var 1 At(A,0)\nc var 2 At(A,0)\np cnf 2 2\n1 2 0\n-1 0\n")
    result = CliRunner().invoke(main, ["crosscheck", str(cnf), "-s", "dpll", "--json", "-"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout.splitlines()[0])
    assert (record["kind"], record["answer"]) == ("cnf", "SAT")
    assert f"{cnf}:2: the key is not used (At(A,0) is named twice" in result.stderr


def test_our_node_time_key_is_the_key_their_front_end_wrote(compat, tmp_path):
    # jkolib's back end reads only `n NODE I` lines (seed 001's suggestion) and crashed on
    # `n At(N,I)`; `--key node-time` writes the lines its own front end wrote
    out = tmp_path / "fe_out.txt"
    result = CliRunner().invoke(
        main, ["maze", "encode", str(compat / M1S), "--key", "node-time", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    ours = read_dp_input(out)
    theirs = read_dp_input(compat / "jkolib__DPLL/fe_out.txt")
    assert len(ours.clauses) == len(theirs.clauses) == 334
    def pairs(key: str) -> list[str]:  # (they number atoms node-major, we time-major)
        return sorted(line.split(" ", 1)[1] for line in key.splitlines())

    assert pairs(ours.back_matter) == pairs(theirs.back_matter)
    assert all(re.fullmatch(r"[0-9]+ [A-Z]+ [0-5]", line) for line in ours.back_matter.splitlines())
