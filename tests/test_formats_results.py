"""formats.results: SAT-competition output and MiniSat result files, read and written."""

from __future__ import annotations

import shutil
import subprocess
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formats import FormatError
from formats.results import (
    MAX_VALUE_LINE,
    SolverResult,
    competition_text,
    minisat_result_text,
    parse_competition,
    parse_minisat_result,
    parse_result,
    screen_output_line,
    solver_error,
)

# -- competition output -------------------------------------------------------------------


def test_competition_sat_with_comments_and_several_value_lines():
    text = "c cadical 1.5.3\nc\ns SATISFIABLE\nv 1 -2\nv 3 -4\nv 0\nc done\n"
    result = parse_competition(text)
    assert result == SolverResult("SAT", [1, -2, 3, -4], ["cadical 1.5.3", "", "done"])
    assert result.valuation() == {1: True, 2: False, 3: True, 4: False}


def test_competition_unsat_unknown_and_no_status_line():
    assert parse_competition("s UNSATISFIABLE\n").status == "UNSAT"
    assert parse_competition("c x\ns UNKNOWN\n").status == "UNKNOWN"
    # cadical stopped by a limit prints only comments: that is UNKNOWN, not an error
    result = parse_competition("c UNKNOWN\nc limit reached\n")
    assert (result.status, result.model) == ("UNKNOWN", None)
    assert parse_competition("").status == "UNKNOWN"
    # its line is the status line (an error or note names it: audit 28-C #3)
    assert parse_competition("c hi\n\nc UNKNOWN\n").status_line == 3
    assert parse_competition("c UNKNOWN\ns UNSATISFIABLE\n").status_line == 2
    assert parse_competition("c hi\n").status_line is None


def test_competition_bom_crlf_blank_lines_and_partial_models():
    text = "\ufeffc hi\r\n\r\ns SATISFIABLE\r\nv -3 1 0\r\n"
    assert parse_competition(text) == SolverResult("SAT", [-3, 1], ["hi"])
    assert parse_competition("s SATISFIABLE\n").model is None


def test_a_tab_after_the_line_letter_is_a_blank():
    # as the DIMACS reader takes `c<TAB>`; a correct solver printing it was a crash (audit 20-B #3)
    text = "c\tnote\ns\tSATISFIABLE\nv\t1 -2 0\n"
    assert parse_competition(text) == SolverResult("SAT", [1, -2], ["note"])
    with pytest.raises(FormatError, match="found 'sat'"):
        parse_competition("sat\n")


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("s SATISFIABLE\ns SATISFIABLE\n", 2, "a second 's' line (the first is line 1)"),
        ("s UNSATISFIABLE\nc\ns SATISFIABLE\nv 0\n", 3, "a second 's' line"),
        ("s SAT\n", 1, "unknown status 'SAT'"),
        ("s satisfiable\n", 1, "unknown status 'satisfiable'"),
        ("s SATISFIABLE\nv 1 -2\n", 2, "value lines do not end with 0"),
        ("s SATISFIABLE\nv 1 0 2 0\n", 2, "0 before the end of the value lines"),
        ("s SATISFIABLE\nv 1 0\nv 2 0\n", 3, "value line after the terminating 0"),
        ("s SATISFIABLE\nv 1 -2\nv 3 2 0\n", 3, "both 2 and -2 (-2 is on line 2)"),
        # the line holding the contradiction, not the last value line (audit 16-B)
        ("s SATISFIABLE\nv 1 -1\nv 3\nv 4 0\n", 2, "model contradicts itself: both -1 and 1"),
        ("s UNSATISFIABLE\nv 1 0\n", 2, "value lines without 's SATISFIABLE'"),
        ("v 1 0\n", 1, "value lines without 's SATISFIABLE'"),
        ("s SATISFIABLE\nv 1 x 0\n", 2, "expected a literal, found 'x'"),
        ("s SATISFIABLE\nv --1 0\n", 2, "expected a literal, found '--1'"),
        ("s SATISFIABLE\nv \u00b2 0\n", 2, "expected a literal, found '\u00b2'"),
        ("s SATISFIABLE\nv 1_0 0\n", 2, "expected a literal, found '1_0'"),
        ("SATISFIABLE\n", 1, "expected a 'c', 's' or 'v' line, found 'SATISFIABLE'"),
        ("c ok\nx" + "y" * 60 + "\n", 2, "expected a 'c', 's' or 'v' line, found 'xyyy"),
    ],
)
def test_bad_competition_output(text, line, fragment):
    with pytest.raises(FormatError) as info:
        parse_competition(text, "solver.out")
    assert (info.value.file, info.value.line) == ("solver.out", line)
    assert fragment in info.value.message


def test_competition_text_layout():
    assert competition_text(SolverResult("UNSAT", None, ["by satkit"])) == (
        "c by satkit\ns UNSATISFIABLE\n"
    )
    assert competition_text(SolverResult("UNKNOWN")) == "s UNKNOWN\n"
    assert competition_text(SolverResult("SAT", [1, -2])) == "s SATISFIABLE\nv 1 -2 0\n"
    assert competition_text(SolverResult("SAT", [])) == "s SATISFIABLE\nv 0\n"


def test_competition_value_lines_at_most_4096_characters():
    model = [(-v if v % 3 else v) for v in range(99_000, 101_500)]
    text = competition_text(SolverResult("SAT", model))
    lines = text.splitlines()
    assert lines[0] == "s SATISFIABLE"
    values = lines[1:]
    assert len(values) > 3
    assert all(line.startswith("v ") and len(line) <= MAX_VALUE_LINE for line in values)
    assert max(len(line) for line in values) > MAX_VALUE_LINE - 10  # lines are filled
    assert values[-1].endswith(" 0")
    assert sum(line.count(" 0") for line in values) == 1
    assert parse_competition(text).model == model


def test_solver_result_rejects_unknown_status():
    with pytest.raises(ValueError, match="status must be one of"):
        SolverResult("SATISFIABLE")


models = st.lists(st.integers(1, 10**6), unique=True, max_size=80).flatmap(
    lambda vs: st.tuples(*[st.sampled_from([v, -v]) for v in vs]).map(list)
)
comment_lists = st.lists(
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Z")), max_size=10
    ),
    max_size=3,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["SAT", "UNSAT", "UNKNOWN"]), models, comment_lists)
def test_competition_round_trip(status, model, comments):
    result = SolverResult(status, model if status == "SAT" else None, comments)
    text = competition_text(result)
    assert text.count("\ns ") + text.startswith("s ") == 1
    assert parse_competition(text) == result
    assert parse_result(text) == result


# -- MiniSat result file ------------------------------------------------------------------


def test_minisat_result_files():
    assert parse_minisat_result("SAT\n1 -2 3 0\n") == SolverResult("SAT", [1, -2, 3])
    assert parse_minisat_result("UNSAT\n") == SolverResult("UNSAT")
    assert parse_minisat_result("INDET\n") == SolverResult("UNKNOWN")
    assert parse_minisat_result("\ufeffSAT\r\n1\r\n-2 0\r\n\r\n").model == [1, -2]
    assert parse_minisat_result("SAT\n").model is None


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("", 1, "empty result file"),
        ("\n\n", 1, "empty result file"),
        ("SATISFIABLE\n1 0\n", 1, "expected SAT, UNSAT or INDET, found 'SATISFIABLE'"),
        ("UNSAT\n1 0\n", 2, "unexpected line after UNSAT"),
        ("INDET\nx\n", 2, "unexpected line after INDET"),
        ("SAT\n1 -2\n", 2, "model line does not end with 0"),
        ("SAT\n1 0 2 0\n", 2, "0 inside the model line"),
        ("SAT\n1 0\n2 0\n", 3, "line after the model's terminating 0"),
        ("SAT\n1 -1 0\n", 2, "model contradicts itself"),
        ("SAT\n1 2\n-2 3\n4 0\n", 3, "both -2 and 2 (2 is on line 2)"),
        ("SAT\n1 y 0\n", 2, "expected a literal, found 'y'"),
    ],
)
def test_bad_minisat_result(text, line, fragment):
    with pytest.raises(FormatError) as info:
        parse_minisat_result(text, "res")
    assert (info.value.file, info.value.line) == ("res", line)
    assert fragment in info.value.message


def test_minisat_result_text():
    assert minisat_result_text(SolverResult("SAT", [1, -2])) == "SAT\n1 -2 0\n"
    assert minisat_result_text(SolverResult("UNSAT")) == "UNSAT\n"
    assert minisat_result_text(SolverResult("UNKNOWN")) == "INDET\n"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["SAT", "UNSAT", "UNKNOWN"]), models)
def test_minisat_round_trip(status, model):
    result = SolverResult(status, model if status == "SAT" else None)
    text = minisat_result_text(result)
    assert parse_minisat_result(text) == result
    assert parse_result(text) == result


def test_parse_result_detects_the_format():
    assert parse_result("\n  UNSAT \n").status == "UNSAT"
    assert parse_result("INDET\n").status == "UNKNOWN"
    assert parse_result("c SAT\ns SATISFIABLE\nv 1 0\n").model == [1]
    assert parse_result("s UNSATISFIABLE\n").status == "UNSAT"
    with pytest.raises(FormatError, match="MiniSat's screen output, which holds no model"):
        parse_result("SATISFIABLE\n")  # minisat's stdout word, not its result file


def test_minisat_screen_output_is_told_apart_from_its_result_file(cnf_files, tmp_path):
    # `minisat IN.cnf > out` is a natural mistake: it gave "expected 'ATOM T' or 'ATOM F'"
    for word in ("SATISFIABLE", "UNSATISFIABLE", "INDETERMINATE"):
        assert screen_output_line(f"|  stats  |\n\n{word}\n") == 3
    assert screen_output_line("c UNSATISFIABLE\ns UNSATISFIABLE\n") is None
    assert screen_output_line("SAT\n1 -2 0\n") is None
    # Glucose and other MiniSat-based solvers print the banner as a comment: a valid answer
    glucose = "c This is glucose 4.1\nc ====[ Problem Statistics ]====\ns SATISFIABLE\nv 1 0\n"
    assert screen_output_line(glucose) is None
    assert parse_result(glucose).model == [1]
    minisat = shutil.which("minisat")
    if minisat is None:
        return
    for cnf in cnf_files:
        run = subprocess.run([minisat, str(cnf)], capture_output=True, text=True, check=False)
        assert screen_output_line(run.stdout) is not None
        with pytest.raises(FormatError, match=r"^out:\d+: this is MiniSat's screen output"):
            parse_result(run.stdout, "out")


SCREEN = (
    "WARNING: for repeatability, setting FPU to use double precision\n"
    "============================[ Problem Statistics ]=============================\n"
    "|  Number of variables:             5                                         |\n"
    "===============================================================================\n"
    "CPU time              : 0.001 s\n\n"
)


def test_a_result_file_followed_by_minisats_screen_output_is_read():
    # `minisat IN.cnf /dev/stdout | satkit …`: the result file comes first into the pipe
    result = parse_result("SAT\n1 -2 3 0\n" + SCREEN + "SATISFIABLE\n", "p")
    assert (result.status, result.model, result.status_line) == ("SAT", [1, -2, 3], 1)
    assert parse_result("UNSAT\n" + SCREEN + "UNSATISFIABLE\n").status == "UNSAT"
    assert parse_result("INDET\n" + SCREEN + "INDETERMINATE\n").status == "UNKNOWN"
    with pytest.raises(FormatError) as caught:  # the two halves must agree
        parse_result("SAT\n1 0\n" + SCREEN + "UNSATISFIABLE\n", "p")
    assert (caught.value.line, caught.value.message) == (
        9,
        "MiniSat's screen output ends in 'UNSATISFIABLE', but its result file above it says SAT",
    )
    with pytest.raises(FormatError, match=r"^p:2: model line does not end with 0"):
        parse_result("SAT\n1 -2\n" + SCREEN + "SATISFIABLE\n", "p")
    # the screen output alone, or before the result, is still refused
    with pytest.raises(FormatError, match="MiniSat's screen output, which holds no model"):
        parse_result(SCREEN + "SATISFIABLE\n")
    with pytest.raises(FormatError, match="MiniSat's screen output, which holds no model"):
        parse_result(SCREEN + "SATISFIABLE\nSAT\n1 0\n")


def test_the_real_minisat_writing_its_result_to_a_pipe(cnf_files):
    minisat = _need("minisat")
    sat, unsat = cnf_files
    for cnf, status in ((sat, "SAT"), (unsat, "UNSAT")):
        run = subprocess.run(
            f"{minisat} {cnf} /dev/stdout | cat", shell=True, capture_output=True, text=True
        )
        result = parse_result(run.stdout, "pipe")
        assert result.status == status
        if status == "SAT":
            true = set(result.model)
            assert all(true.intersection(clause) for clause in _clauses(SAT_CNF))


# -- what real solvers print --------------------------------------------------------------

SAT_CNF = "p cnf 5 6\n1 -2 0\n2 3 0\n-3 4 -5 0\n-1 -4 0\n5 2 0\n-5 -2 3 0\n"
UNSAT_CNF = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"


def _clauses(text: str) -> list[list[int]]:
    from formats.dimacs import parse_dimacs

    return parse_dimacs(text).clauses


def _satisfies(model: list[int], text: str) -> bool:
    true = set(model)
    return all(any(lit in true for lit in clause) for clause in _clauses(text))


def _pigeonhole(holes: int) -> str:
    pigeons = holes + 1

    def var(p, h):
        return p * holes + h + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
    for h in range(holes):
        clauses += [[-var(p, h), -var(q, h)] for p, q in combinations(range(pigeons), 2)]
    body = "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    return f"p cnf {pigeons * holes} {len(clauses)}\n{body}"


def _need(binary: str) -> str:
    path = shutil.which(binary)
    if path is None:
        pytest.skip(f"{binary} is not on PATH")
    return path


@pytest.fixture
def cnf_files(tmp_path: Path) -> tuple[Path, Path]:
    sat, unsat = tmp_path / "sat.cnf", tmp_path / "unsat.cnf"
    sat.write_text(SAT_CNF)
    unsat.write_text(UNSAT_CNF)
    return sat, unsat


def test_minisat_result_file_from_the_real_minisat(cnf_files, tmp_path):
    minisat = _need("minisat")
    sat, unsat = cnf_files
    out = tmp_path / "result"
    run = subprocess.run([minisat, str(sat), str(out)], capture_output=True, check=False)
    assert run.returncode == 10
    result = parse_result(out.read_text(), str(out))
    assert result.status == "SAT"
    assert _satisfies(result.model, SAT_CNF)
    run = subprocess.run([minisat, str(unsat), str(out)], capture_output=True, check=False)
    assert run.returncode == 20
    assert parse_minisat_result(out.read_text()) == SolverResult("UNSAT")


@pytest.mark.parametrize("binary", ["cadical", "picosat"])
def test_competition_output_from_real_solvers(binary, cnf_files):
    solver = _need(binary)
    sat, unsat = cnf_files
    run = subprocess.run([solver, str(sat)], capture_output=True, text=True, check=False)
    assert run.returncode == 10
    result = parse_result(run.stdout, binary)
    assert result.status == "SAT"
    assert _satisfies(result.model, SAT_CNF)
    run = subprocess.run([solver, str(unsat)], capture_output=True, text=True, check=False)
    assert run.returncode == 20
    assert parse_result(run.stdout, binary).status == "UNSAT"


@pytest.mark.parametrize(("binary", "limit"), [("cadical", ["-c", "1"]), ("picosat", ["-l", "1"])])
def test_real_solvers_stopped_by_a_limit_read_as_unknown(binary, limit, tmp_path):
    solver = _need(binary)
    hard = tmp_path / "php.cnf"
    hard.write_text(_pigeonhole(7))
    run = subprocess.run([solver, *limit, str(hard)], capture_output=True, text=True, check=False)
    assert run.returncode == 0
    assert parse_result(run.stdout, binary).status == "UNKNOWN"


# -- audit fix: literals above MAX_VARIABLES ------------------------------------------------

TOO_LARGE = "exceeds the largest variable number 2147483647"


@pytest.mark.parametrize(
    ("text", "line", "shown"),
    [
        ("s SATISFIABLE\nv 1 -2\nv 99999999999999999999999 0\n", 3, "99999999999999999999999"),
        ("c x\ns SATISFIABLE\nv 1 -2147483648 0\n", 3, "-2147483648"),
        ("s SATISFIABLE\nv 1 " + "6" * 5000 + " 0\n", 2, "6" * 30 + "… (5000 digits)"),
        ("SAT\n1 -99999999999999999999999 0\n", 2, "-99999999999999999999999"),
        ("SAT\n1 2\n3 2147483648 0\n", 3, "2147483648"),
        ("SAT\n-" + "6" * 5000 + " 0\n", 2, "-" + "6" * 30 + "… (5000 digits)"),
    ],
)
def test_result_literals_above_max_variables_are_errors(text, line, shown):
    with pytest.raises(FormatError) as info:
        parse_result(text, "r.out")
    assert (info.value.file, info.value.line) == ("r.out", line)
    assert info.value.message == f"literal {shown} {TOO_LARGE}"


def test_result_literals_up_to_max_variables_and_long_leading_zeros():
    assert parse_result("s SATISFIABLE\nv 1 -2147483647 0\n").model == [1, -2147483647]
    assert parse_result("SAT\n2147483647 0\n").model == [2147483647]
    assert parse_result("s SATISFIABLE\nv -" + "0" * 5000 + "2 0\n").model == [-2]


def test_a_comment_with_a_line_break_cannot_end_the_answer_early():
    text = competition_text(SolverResult("UNSAT", comments=["proof (DRUP): a\ns SATISFIABLE"]))
    assert text == "c proof (DRUP): a\nc s SATISFIABLE\ns UNSATISFIABLE\n"
    assert parse_competition(text).status == "UNSAT"


@pytest.mark.parametrize("comment", ["a\x0cb", "x\u2028y", "file\x85name", "v\x0bt", "g\x1dh"])
def test_answers_read_back_with_comments_only_other_readers_split(comment):
    # str.splitlines ended lines at FF, VT, U+0085, U+2028, …, which no DIMACS or DP reader
    # does: a comment holding one (an echoed file name) became a line that is not c/s/v,
    # and a solver's answer a crash (audit 19-C #6)
    from formats.results import SolverResult, competition_text, parse_result

    text = competition_text(SolverResult("SAT", [1, -2], comments=[comment]))
    assert parse_result(text) == SolverResult("SAT", [1, -2], comments=[comment])
    assert parse_result(f"c {comment}\n" + text).model == [1, -2]


@pytest.mark.parametrize(
    "text",
    ["bad.cnf:1: missing or invalid 'p cnf <variables> <clauses>' header\n",  # picosat, stdout
     "\n\ufeffx.cnf:2: expected number\n",
     "cadical: error: x.cnf:1: parse error: expected 'c' or 'p'\n",
     "*** picosat: can not read input file 'x.cnf'\n"],  # stdout, exit 0 (audit 24-A #4)
)  # fmt: skip
def test_a_solver_error_message_is_named_as_one(text):
    # picosat prints its parse errors on stdout and exits 0: the saved "answer" is one
    # (audit 23-C)
    with pytest.raises(FormatError) as caught:
        parse_result(text, "out.txt")
    assert "this is a solver's error message, not an answer: " in caught.value.message
    assert caught.value.line == (2 if text.startswith("\n") else 1)
    assert solver_error("s SATISFIABLE\nv 1 0\n", "o") is None
    assert solver_error("1 T\n0\n", "o") is None
