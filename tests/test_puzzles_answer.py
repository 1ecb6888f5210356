"""`satkit puzzle … --answer RESULT`: another solver's answer to a puzzle's CNF, checked."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Minisat22

import puzzles.cli as cli
from formats.assignment import dp_output_text
from formats.errors import FormatError
from formats.results import SolverResult, competition_text, minisat_result_text
from puzzles.einstein import einstein_puzzle
from puzzles.loader import parse_puzzle
from puzzles.solve import answer_puzzle, solve_puzzle
from puzzles.zebra import encode

ROOT = Path(__file__).resolve().parents[1]
EINSTEIN_TOML = ROOT / "data" / "puzzles" / "einstein.toml"
HARBOUR = ROOT / "data" / "puzzles" / "harbour-lane.json"
TWO_SOLUTIONS = """
title = "Two houses"
houses = 2

[categories]
Color = ["Red", "Blue"]
Pet = ["Cat", "Dog"]

[question]
find = "Pet"
where = "Red"

[[hints]]
not_same_house = ["Red", "Dog"]
"""
CONTRADICTION = TWO_SOLUTIONS + '\n[[hints]]\nsame_house = ["Red", "Dog"]\n'


def minisat_model(clauses: list[list[int]], blocked: list[list[int]] = ()) -> list[int] | None:
    with Minisat22(bootstrap_with=[*clauses, *blocked]) as solver:
        return solver.get_model() if solver.solve() else None


def einstein_model() -> list[int]:
    model = minisat_model(encode(einstein_puzzle(), names=False).formula.clauses)
    assert model is not None
    return model


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli.puzzle_group, list(args), input=stdin)


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(lambda m: competition_text(SolverResult("SAT", m)), id="competition"),
        pytest.param(lambda m: minisat_result_text(SolverResult("SAT", m)), id="minisat"),
        pytest.param(
            lambda m: dp_output_text({abs(v): v > 0 for v in m}, "back matter\n"), id="dp"
        ),
    ],
)
def test_einstein_answer_of_another_solver_is_decoded_in_every_format(tmp_path, text):
    answer = write(tmp_path, "e.out", text(einstein_model()))
    result = run("einstein", "--answer", answer)
    assert result.exit_code == 10, result.output
    lines = result.stdout.splitlines()
    assert "Who owns the fish? German, in house 4." in lines
    assert "The solution is unique (with it blocked, the formula is unsatisfiable)." in lines
    assert lines[-1] == (
        f"Answer read from {answer} (every clause checked); uniqueness checked by cdcl,"
        " vsids, seed 0"
    )
    # the same table as our own solver's
    assert lines[2:8] == run("einstein").stdout.splitlines()[2:8]


def test_answer_from_stdin_and_as_json(tmp_path):
    text = competition_text(SolverResult("SAT", einstein_model()))
    result = run("solve", str(EINSTEIN_TOML), "--answer", "-", "--json", "--no-unique", stdin=text)
    assert result.exit_code == 10, result.output
    report = json.loads(result.stdout)
    assert report["solver"]["answer"] == "<stdin>"
    assert report["table"]["Nationality"][3] == "German"
    assert report["unique"] is None and report["stats"] == {}
    assert run("solve", "-", "--answer", "-", stdin=text).exit_code == 2  # stdin read once


def test_a_wrong_model_is_refused_naming_the_clause_and_its_constraint(tmp_path):
    model = einstein_model()
    brit = encode(einstein_puzzle(), names=False)
    # the Brit in house 1 instead of where he is: every clause of 'Brit in the red house'
    # and of 'exactly one Nationality per house' stays checked, the first false one named
    flipped = [-lit if abs(lit) in (26, 28) else lit for lit in model]
    answer = write(tmp_path, "e.out", minisat_result_text(SolverResult("SAT", flipped)))
    result = run("einstein", "--answer", answer)
    assert result.exit_code == 1
    message = result.stderr.strip()
    assert message.startswith(f"error: {answer}: the model does not satisfy clause ")
    number = int(message.split("clause ")[1].split()[0])
    label = next(g.label for g in brit.groups if g.first <= number <= g.last)
    assert f"of the CNF (from {'' if label.startswith('exactly_one') else 'the hint '}{label})" in (
        message
    )


def test_an_answer_for_another_puzzles_cnf_is_refused(tmp_path):
    harbour = encode(parse_puzzle(HARBOUR.read_text(), HARBOUR.name), names=False).formula
    model = minisat_model(harbour.clauses)
    assert model is not None
    bare = write(tmp_path, "h.out", minisat_result_text(SolverResult("SAT", model)))
    result = run("einstein", "--answer", bare)
    assert result.exit_code == 1 and "the model does not satisfy clause" in result.stderr
    # CaDiCaL says which header it read: that alone tells the CNFs apart
    header = f"found 'p cnf {harbour.nvars} {len(harbour.clauses)}' header"
    said = write(tmp_path, "h.cad", competition_text(SolverResult("SAT", model, [header])))
    result = run("einstein", "--answer", said)
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"error: {said}: the solver read 'p cnf {harbour.nvars} {len(harbour.clauses)}', and"
        " the puzzle's CNF is 'p cnf 125 793': this answer is for another CNF"
    )


def test_unsatisfiable_answers_are_confirmed_by_dpll(tmp_path):
    puzzle_file = write(tmp_path, "bad.toml", CONTRADICTION)
    answer = write(tmp_path, "bad.out", "UNSAT\n")
    result = run("solve", puzzle_file, "--answer", answer)
    assert result.exit_code == 20, result.output
    assert "No solution: the hints contradict each other." in result.stdout
    assert result.stdout.splitlines()[-1].startswith(
        f"Answer read from {answer}: UNSATISFIABLE, confirmed by cdcl, vsids, seed 0"
    )
    # an UNSATISFIABLE for a puzzle with a solution is a wrong answer, not "no solution"
    wrong = write(tmp_path, "wrong.out", "c by someone\ns UNSATISFIABLE\n")
    result = run("einstein", "--answer", wrong)
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        f"error: {wrong}:2: the solver says UNSATISFIABLE, but dpll finds a solution of the"
        " puzzle's CNF: this answer is wrong, or for another CNF"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("s SATISFIABLE\n", ":1: the solver says SATISFIABLE but gives no model"),
        ("  \n", ":1: empty input: no answer to decode"),
        (
            "|  Number of variables:           125                                         |\n"
            "SATISFIABLE\n",
            ":2: this is MiniSat's screen output",
        ),
        ("1 T\n2 X\n0\n", ":2: "),
        (
            "*** picosat: can not read input file 'e.cnf'\n",
            ":1: this is a solver's error message, not an answer: *** picosat: can not read",
        ),
    ],
)
def test_what_is_no_answer_is_a_one_line_error(tmp_path, text, message):
    answer = write(tmp_path, "x.out", text)
    result = run("einstein", "--answer", answer)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"error: {answer}{message}")
    assert result.stderr.count("\n") == 1 and result.stdout == ""


@pytest.mark.parametrize("text", ["s UNKNOWN\n", "c UNKNOWN\n", "INDET\n"])
def test_an_unknown_answer_is_unknown_not_bad_input(tmp_path, text):
    # a solver's time-out, as `solve` reports one: exit 0 (audit 24-A #3)
    answer = write(tmp_path, "x.out", text)
    result = run("einstein", "--answer", answer)
    assert result.exit_code == 0, result.output
    # (CaDiCaL's `c UNKNOWN` is cited by its line too: audit 28-C #3)
    assert result.stdout == f"Einstein's puzzle: no answer, {answer}:1 says UNKNOWN\n"
    report = json.loads(run("einstein", "--answer", answer, "--json").stdout)
    assert report["status"] == "UNKNOWN" and report["answer"] == answer


def test_the_checks_after_an_answer_use_cdcl_unless_a_mode_is_given(tmp_path):
    # the external solver was there for speed: the classic DPLL's uniqueness check took
    # minutes on a 10-house puzzle (audit 24-A #1)
    answer = write(tmp_path, "e.out", minisat_result_text(SolverResult("SAT", einstein_model())))
    last = run("einstein", "--answer", answer).stdout.splitlines()[-1]
    assert last.endswith("uniqueness checked by cdcl, vsids, seed 0")
    last = run("einstein", "--answer", answer, "--mode", "classic").stdout.splitlines()[-1]
    assert last.endswith("uniqueness checked by classic DPLL, two-clause heuristic, seed 0")
    assert run("einstein").stdout.splitlines()[-1].startswith("Splitting-rule applications")


def test_cnf_output_may_not_overwrite_the_answer(tmp_path):
    text = minisat_result_text(SolverResult("SAT", einstein_model()))
    answer = write(tmp_path, "e.out", text)
    result = run("einstein", "--answer", answer, "--cnf", answer)
    assert result.exit_code == 1
    assert Path(answer).read_text() == text
    # beside it, the CNF is written as usual (the one the answer is for)
    cnf = tmp_path / "e.cnf"
    assert run("einstein", "--answer", answer, "--cnf", str(cnf), "-q").exit_code == 10
    assert cnf.read_text().startswith("p cnf 125 793\n")


def test_a_non_unique_answer_shows_another_solution(tmp_path):
    puzzle_file = write(tmp_path, "two.toml", TWO_SOLUTIONS)
    clauses = encode(parse_puzzle(TWO_SOLUTIONS, "two.toml"), names=False).formula.clauses
    model = minisat_model(clauses)
    answer = write(tmp_path, "two.out", competition_text(SolverResult("SAT", model)))
    result = run("solve", puzzle_file, "--answer", answer)
    assert result.exit_code == 10, result.output
    assert "The solution is NOT unique; another one is:" in result.stdout


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=50))
def test_every_model_minisat_enumerates_decodes_to_a_table_that_keeps_every_hint(blocks):
    """Minisat22's models of a puzzle with many solutions (Einstein's without its last
    hints), the first ``blocks`` of them blocked: each one decodes, and the table it gives
    is the one its true variables name."""
    einstein = einstein_puzzle()
    puzzle = dataclasses.replace(einstein, hints=einstein.hints[:6])
    clauses = encode(puzzle, names=False).formula.clauses
    blocked: list[list[int]] = []
    model = minisat_model(clauses)
    for _ in range(blocks):
        assert model is not None
        blocked.append([-lit for lit in model if lit > 0])
        model = minisat_model(clauses, blocked)
    assert model is not None
    result = answer_puzzle(puzzle, {abs(v): v > 0 for v in model}, "m", check_unique=False)
    assert result.solution is not None
    assert result.solution.true_vars() == sorted(lit for lit in model if lit > 0)
    assert result.solution.violated_hints() == []


def test_answer_puzzle_agrees_with_solve_puzzle_on_uniqueness():
    puzzle = einstein_puzzle()
    ours = solve_puzzle(puzzle)
    theirs = answer_puzzle(puzzle, {abs(v): v > 0 for v in einstein_model()}, "m")
    assert theirs.solution == ours.solution
    assert (theirs.unique, theirs.answer_determined) == (ours.unique, ours.answer_determined)
    assert theirs.stats == {} and theirs.check_stats  # dpll only ran the uniqueness check
    with pytest.raises(FormatError, match="gives variable 126 a value"):
        answer_puzzle(puzzle, {126: True}, "m")


def test_a_heuristic_of_the_other_mode_names_the_default_mode_of_answers(tmp_path):
    answer = write(tmp_path, "e.out", minisat_result_text(SolverResult("SAT", einstein_model())))
    result = run("einstein", "--answer", answer, "--heuristic", "jw")
    assert result.exit_code == 2
    assert "--mode cdcl (the default with --answer) takes vsids" in result.output
    assert run("einstein", "--answer", answer, "--heuristic", "jw", "--mode", "classic",
               "-q").exit_code == 10  # fmt: skip
