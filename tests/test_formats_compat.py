"""Every file of ../shared/compat read with the kind its SOURCES.md gives it.

Clause files (DP input) must give the listed clause counts and survive
DP -> DIMACS -> DP through `satkit convert` with the same clauses and the same
back matter byte for byte; DP outputs must read, and the valid ones must satisfy
the clause file they belong to; the files SOURCES.md calls invalid or
non-conforming must be rejected with the line that is wrong. Maze, path and
symbolic files belong to other packages and are only checked to be listed here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from formats import FormatError
from formats.assignment import read_dp_input, read_dp_output
from formats.cli import convert
from formats.detect import detect_format
from formats.dimacs import read_dimacs
from formats.statistics import formula_stats

JX = "Junxiao-Zhao__Davis-Putnam"
JK = "jkolib__DPLL"
RK = "RohanK6__DavisPutnam-Algorithm"
MP = "mpgarate__Artificial-Intelligence"
NS = "Nick-Stewart7__Davis-Putnam-Solver"
JB = "jbour20__davisputnam"

# clause file -> (clause count (None: SOURCES.md gives none), atoms, status by MiniSat or None)
CLAUSES = {
    "S2ang__SAT-solver/FrontEndOutput.txt": (352, 84, "UNSAT"),
    f"{JX}/FrontEndOutput.txt": (334, 72, "SAT"),
    f"{JX}/@1bd27a4/FrontEndOutput.txt": (46, 20, "SAT"),
    f"{JX}/@9665254/dp_input.txt": (3, 3, "SAT"),
    f"{JX}/@5175ecb/dp_input.txt": (9, 6, "SAT"),
    f"{JK}/fe_out.txt": (334, 72, "SAT"),
    f"{JK}/@a0c549c/fe_out.txt": (388, 78, "SAT"),
    f"{JK}/@502bb86/fe_out.txt": (3, 3, "SAT"),
    f"{JK}/@21fb2fb/fe_out.txt": (9, 6, "SAT"),
    f"{RK}/src/DavisPutnam/input.txt": (334, 72, "SAT"),
    f"{RK}/@d602db6/src/FrontEnd/output.txt": (46, 20, "SAT"),
    "SiyuBi__Davis-Putnam-Implementation/clauses.txt": (334, 72, "SAT"),
    f"{MP}/test/dp_trivial.txt": (3, 3, "SAT"),
    f"{MP}/test/dp_normal.txt": (9, 6, "SAT"),
    f"{MP}/test/dp_hw5.txt": (None, 5, "SAT"),
    f"{MP}/test/dp_midterm.txt": (None, 4, "SAT"),
    f"{MP}/test/dp_sample_midterm.txt": (None, 4, "SAT"),
    f"{MP}/io/game.txt": (15_260, 720, "SAT"),
    f"{JB}/outputs/davis_putnam_input.txt": (720, 105, "SAT"),
    f"{NS}/examp.txt": (3, 3, "SAT"),
    f"{NS}/input1.txt": (None, 4, "SAT"),
    f"{NS}/input2.txt": (None, 12, "SAT"),
    f"{NS}/input3.txt": (None, 4, "UNSAT"),
}

# DP output -> the clause file it is a valid model of (None: format sample only)
DP_OUTPUTS = {
    f"{JX}/BackEndInput.txt": f"{JX}/FrontEndOutput.txt",
    f"{JX}/@1bd27a4/BackEndInput.txt": f"{JX}/@1bd27a4/FrontEndOutput.txt",
    f"{JX}/@9665254/dp_output.txt": f"{JX}/@9665254/dp_input.txt",
    f"{JK}/dpll_out.txt": f"{JK}/fe_out.txt",
    f"{JK}/@559de43/dpll_out.txt": f"{JK}/@a0c549c/fe_out.txt",
    f"{JK}/@ad752e5/dpll_out.txt": f"{JK}/@21fb2fb/fe_out.txt",
    f"{RK}/@d602db6/src/DavisPutnam/output.txt": f"{RK}/@d602db6/src/FrontEnd/output.txt",
    f"{MP}/test/dp_trivial_out.txt": f"{MP}/test/dp_trivial.txt",
    f"{MP}/test/dp_normal_out.txt": f"{MP}/test/dp_normal.txt",
    f"{MP}/test/dp_hw5_out.txt": f"{MP}/test/dp_hw5.txt",
    f"{MP}/test/dp_midterm_out.txt": f"{MP}/test/dp_midterm.txt",
    f"{MP}/test/dp_sample_midterm_out.txt": f"{MP}/test/dp_sample_midterm.txt",
    f"{MP}/dp_output.txt": f"{MP}/test/dp_trivial.txt",
    f"{JB}/outputs/davis_putnam_output.txt": f"{JB}/outputs/davis_putnam_input.txt",
    # the UNSAT layout, but wrong for its clauses (fixed upstream the next commit)
    f"{RK}/@20fd74f/src/DavisPutnam/DavisPutnamOutput.txt": None,
    # a model for a different run (M3, At atoms first): decodes, belongs to no clause file here
    "SiyuBi__Davis-Putnam-Implementation/results.txt": None,
}

# files SOURCES.md calls invalid / non-conforming: (reader, line, fragment of the message)
REJECTED = {
    f"{RK}/@e0a6306/src/DavisPutnam/input.txt": (
        read_dp_input,
        1,
        "expected a signed atom number, found 'P'",
    ),
    "S2ang__SAT-solver/DPOutput.txt": (read_dp_output, 49, "no line '0' after the valuation"),
    f"{JX}/@5175ecb/dp_output.txt": (read_dp_output, 6, "atom 6 has value 'N'"),
}

# the other kinds: not for `formats` (maze, path, symbolic clauses)
OTHER_KINDS = {
    "maze": [
        "S2ang__SAT-solver/FrontEndInput.txt",
        f"{JX}/FrontEndInput.txt",
        f"{JX}/@1bd27a4/FrontEndInput.txt",
        "Anhtrr__Davis-Putnam/FEin-example.txt",
        "Anhtrr__Davis-Putnam/@decdd48/FEin.txt",
        f"{JK}/fe_in.txt",
        f"{JK}/@8457dbf/fe_in.txt",
        f"{JK}/@32d40a7/fe_in.txt",
        f"{RK}/src/FrontEnd/small_maze_problem_example.txt",
        f"{RK}/src/FrontEnd/big_maze_problem_example.txt",
        "SiyuBi__Davis-Putnam-Implementation/input.txt",
        "AnyaTrivedi__Davis_Putnam_Algorithm/input",
        f"{MP}/test/ag_simple.txt",
        f"{MP}/test/ag_normal.txt",
        f"{MP}/test/ag_impossible.txt",
        f"{MP}/test/ag_bigger.txt",
        f"{MP}/test/ag_difficult.txt",
        f"{JB}/inputs/in_regular.txt",
        "nickoralias__davis-putnam/input1.txt",
        "nickoralias__davis-putnam/big.txt",
    ],
    "path": [
        "S2ang__SAT-solver/BackEndOutput.txt",
        f"{JX}/BackEndOutput.txt",
        f"{JX}/@1bd27a4/BackEndOutput.txt",
        f"{JK}/be_out.txt",
        f"{RK}/@d602db6/src/BackEnd/output.txt",
        f"{JB}/outputs/solution.txt",
    ],
    "symbolic": [
        f"{JX}/FrontEndClauses.txt",
        f"{JX}/@1bd27a4/FrontEndClauses.txt",
        f"{JB}/outputs/symbolic_clauses.txt",
    ],
}


def test_every_compat_file_is_classified(compat: Path):
    """A file added to ../shared/compat must be given a kind here before it counts as read."""
    present = {
        str(path.relative_to(compat))
        for path in compat.rglob("*")
        if path.is_file() and path.name not in ("SOURCES.md", ".gitattributes")
    }
    listed = set(CLAUSES) | set(DP_OUTPUTS) | set(REJECTED)
    listed |= {name for names in OTHER_KINDS.values() for name in names}
    assert present == listed


def _back_matter_bytes(path: Path) -> bytes:
    """The bytes after the first line that is just `0` (blanks and CR allowed), read naively."""
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if line.strip() == b"0":
            return b"".join(lines[index + 1 :])
    raise AssertionError(f"{path} has no 0 line")


@pytest.mark.parametrize("name", sorted(CLAUSES))
def test_clause_files(compat: Path, name: str):
    count, atoms, _ = CLAUSES[name]
    path = compat / name
    formula = read_dp_input(path)
    # an independent count: the non-blank lines before the separator
    lines = path.read_bytes().decode("utf-8-sig").splitlines()
    separator = next(i for i, line in enumerate(lines) if line.strip() == "0")
    assert len(formula.clauses) == sum(1 for line in lines[:separator] if line.strip())
    if count is not None:
        assert len(formula.clauses) == count
    assert formula.nvars == atoms
    assert formula.back_matter.encode() == _back_matter_bytes(path)
    assert formula.warnings == []
    assert detect_format(path.read_bytes()) == "assignment"


@pytest.mark.parametrize("name", sorted(CLAUSES))
def test_clause_files_round_trip_through_dimacs(compat: Path, tmp_path: Path, name: str):
    path = compat / name
    original = read_dp_input(path)
    cnf, back = tmp_path / "mid.cnf", tmp_path / "back.txt"
    runner = CliRunner()
    first = runner.invoke(convert, [str(path), "-o", str(cnf)])
    assert first.exit_code == 0, first.output
    middle = read_dimacs(cnf, strict=True)
    assert middle.clauses == original.clauses
    second = runner.invoke(convert, [str(cnf), "-o", str(back)])
    assert second.exit_code == 0, second.output
    again = read_dp_input(back)
    assert again.clauses == original.clauses
    assert _back_matter_bytes(back) == _back_matter_bytes(path)  # byte for byte


def test_clause_file_statuses_agree_with_minisat(compat: Path):
    """A misread clause would likely flip a status (solved by PySAT's MiniSat)."""
    from pysat.solvers import Minisat22

    for name, (_, _, status) in sorted(CLAUSES.items()):
        formula = read_dp_input(compat / name)
        with Minisat22(bootstrap_with=formula.clauses) as solver:
            assert ("SAT" if solver.solve() else "UNSAT") == status, name


def _satisfies(valuation: dict[int, bool], clauses: list[list[int]]) -> bool:
    return all(any(valuation[abs(lit)] == (lit > 0) for lit in clause) for clause in clauses)


@pytest.mark.parametrize("name", sorted(DP_OUTPUTS))
def test_dp_outputs(compat: Path, name: str):
    output = read_dp_output(compat / name)
    assert output.warnings == []
    assert output.back_matter.encode() == _back_matter_bytes(compat / name)
    clause_file = DP_OUTPUTS[name]
    if clause_file is None:
        return
    formula = read_dp_input(compat / clause_file)
    assert output.valuation is not None
    used = {abs(lit) for clause in formula.clauses for lit in clause}
    assert used <= set(output.valuation)  # every atom of the clauses has a value
    assert _satisfies(output.valuation, formula.clauses)


def test_the_unsat_layout_and_the_odd_ones(compat: Path):
    unsat = read_dp_output(compat / RK / "@20fd74f/src/DavisPutnam/DavisPutnamOutput.txt")
    assert unsat.valuation is None
    assert len(unsat.back_matter.splitlines()) == 72
    siyu = read_dp_output(compat / "SiyuBi__Davis-Putnam-Implementation/results.txt")
    assert sorted(siyu.valuation) == list(range(1, 21))
    assert siyu.back_matter.startswith(" 1 At(START,0)")
    assert not siyu.back_matter.endswith("\n")
    hash_order = read_dp_output(compat / JK / "dpll_out.txt")
    assert list(hash_order.valuation)[:3] == [1, 7, 13]  # atoms in any order
    aligned = read_dp_output(compat / JB / "outputs/davis_putnam_output.txt")
    assert len(aligned.valuation) == 105


def test_the_same_valuation_from_two_implementations(compat: Path):
    jkolib = read_dp_output(compat / JK / "@ad752e5/dpll_out.txt").valuation
    mpgarate = read_dp_output(compat / MP / "test/dp_normal_out.txt").valuation
    assert jkolib == mpgarate == {1: False, 2: True, 3: False, 4: False, 5: True, 6: True}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_invalid_and_non_conforming_files_are_rejected(compat: Path, name: str):
    reader, line, fragment = REJECTED[name]
    with pytest.raises(FormatError) as info:
        reader(compat / name)
    assert info.value.file == str(compat / name)
    assert info.value.line == line
    assert fragment in info.value.message


def test_invalid_clause_file_through_the_command(compat: Path, tmp_path: Path):
    path = compat / RK / "@e0a6306/src/DavisPutnam/input.txt"
    result = CliRunner().invoke(convert, [str(path), "-o", str(tmp_path / "x.cnf")])
    assert result.exit_code == 1
    assert result.stderr == (f"error: {path}:1: expected a signed atom number, found 'P'\n")
    assert list(tmp_path.iterdir()) == []


def test_stats_on_the_biggest_clause_file(compat: Path):
    stats = formula_stats(read_dp_input(compat / MP / "io/game.txt"))
    assert (stats.clauses, stats.variables) == (15_260, 720)
    assert sum(stats.length_histogram.values()) == 15_260
