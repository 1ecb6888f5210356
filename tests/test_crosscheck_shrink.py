"""crosscheck.shrink: the delta debugger keeps the failure and gets small."""

from __future__ import annotations

import dataclasses
import hashlib
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosscheck.check import CheckOptions
from crosscheck.generators import random_ksat
from crosscheck.instances import Instance
from crosscheck.registry import register_solver, unregister_solver
from crosscheck.shrink import failure_signature, renumber, shrink_clauses, shrink_instance
from dpll import Solver

clauses = st.lists(
    st.lists(st.integers(-9, 9).filter(bool), min_size=1, max_size=4), min_size=1, max_size=30
)


@settings(max_examples=100, deadline=None)
@given(clauses, st.integers(1, 9))
def test_shrinking_keeps_the_failure_and_never_grows(formula, var):
    def fails(candidate):
        return any(var in clause for clause in candidate)

    if not fails(formula):
        formula = [*formula, [var, 1]]
    small, checks, _ = shrink_clauses(formula, fails)
    assert fails(small)
    assert small == [[var]]  # one clause, one literal: the minimum for this failure
    assert checks >= 1


def test_shrinking_a_pair_condition():
    rng = random.Random(3)
    formula = [[rng.choice([-1, 1]) * rng.randint(1, 20) for _ in range(3)] for _ in range(200)]
    formula += [[5, 6, 7], [-8, 9]]

    def fails(candidate):  # needs a clause with 5 and a clause with -8
        return any(5 in c for c in candidate) and any(-8 in c for c in candidate)

    small, _, _ = shrink_clauses(formula, fails)
    assert sorted(small) == [[-8], [5]]


def test_the_check_budget_is_respected():
    formula = [[i] for i in range(1, 200)]
    small, checks, _ = shrink_clauses(formula, lambda c: [150] in c, max_checks=5)
    assert checks == 5 and [150] in small


def test_a_budget_running_out_mid_pass_keeps_the_smallest_failure_so_far():
    # the clause pass used to commit only when it finished: 5 checks gave back all 199
    formula = [[i] for i in range(1, 200)]
    small, checks, _ = shrink_clauses(formula, lambda c: [150] in c, max_checks=5)
    assert checks == 5 and [150] in small and len(small) <= 50


def test_renumber():
    assert renumber([[9, -4], [], [4, 12]]) == ([[1, -2], [], [2, 3]], 3)


class _FlipsWithThree:
    """Test-only: claims UNSAT when its own model sets variable 3 true."""

    def __init__(self, bootstrap_with=None, **_options):
        # without the lucky phases, whose all-false first attempt satisfies most small
        # formulas, so that variable 3 would seldom be true
        self.inner = Solver(bootstrap_with=bootstrap_with, lucky=False)

    def solve(self, assumptions=()):
        verdict = self.inner.solve(assumptions)
        return False if verdict and 3 in self.inner.get_model() else verdict

    def get_model(self):
        return self.inner.get_model()

    def accum_stats(self):
        return {}

    def delete(self):
        self.inner.delete()


@pytest.fixture
def flips():
    register_solver("test:flips-with-3", _FlipsWithThree)
    yield "test:flips-with-3"
    unregister_solver("test:flips-with-3")


def test_shrink_instance_to_the_core_of_the_bug(flips):
    options = CheckOptions(["minisat22", flips], timeout=30)
    for seed in range(100):
        formula = random_ksat(seed, 30)
        instance = Instance(f"ksat-{seed}", formula.clauses, formula.nvars)
        result = shrink_instance(instance, options)
        if result is not None:
            break
    else:
        pytest.fail("no instance made the faulty solver fail")
    assert result.failures == frozenset({(flips, "disagree")})
    assert len(result.clauses) <= 3 and result.nvars <= 3
    assert failure_signature(result.record) >= result.failures


def test_nothing_to_shrink_gives_none():
    formula = random_ksat(1, 20)
    instance = Instance("ok", formula.clauses, formula.nvars)
    assert shrink_instance(instance, CheckOptions(["dpll", "minisat22"], timeout=30)) is None


def _failing_ksat(options):
    for seed in range(100):
        formula = random_ksat(seed, 30)
        instance = Instance(f"ksat-{seed}", formula.clauses, formula.nvars)
        if shrink_instance(instance, options, max_checks=1) is not None:
            return instance
    pytest.fail("no instance made the faulty solver fail")


def test_ctrl_c_while_shrinking_gives_the_smallest_failure_so_far(flips, monkeypatch):
    import crosscheck.shrink

    options = CheckOptions(["minisat22", flips], timeout=30)
    instance = _failing_ksat(options)
    real_check = crosscheck.shrink.check_instance
    calls = []

    def ctrl_c_at_the_12th_check(*args):
        calls.append(args)
        if len(calls) == 12:
            raise KeyboardInterrupt
        return real_check(*args)

    monkeypatch.setattr(crosscheck.shrink, "check_instance", ctrl_c_at_the_12th_check)
    result = shrink_instance(instance, options)
    monkeypatch.undo()
    assert result is not None and result.interrupted and result.checks == 12
    assert len(result.clauses) < len(instance.clauses)
    assert result.failures == frozenset({(flips, "disagree")})
    # the clauses kept are the last ones that failed: re-checking them fails the same way
    again = Instance("again", result.clauses, result.nvars)
    assert shrink_instance(again, options, max_checks=1) is not None
    # a Ctrl-C in the first check (nothing known to fail yet) is raised
    calls.clear()
    monkeypatch.setattr(crosscheck.shrink, "check_instance", lambda *a: (_ for _ in ()).throw(
        KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        shrink_instance(instance, options)


def test_shrink_command_with_a_small_budget_writes_what_it_shrank(flips, tmp_path):
    from click.testing import CliRunner

    from formats.dimacs import read_dimacs, write_dimacs
    from formats.formula import Formula
    from satkit import main

    instance = _failing_ksat(CheckOptions(["minisat22", flips], timeout=30))
    path = tmp_path / "fails.cnf"
    write_dimacs(Formula(nvars=instance.nvars, clauses=instance.clauses), str(path))
    out = tmp_path / "small.cnf"
    solvers = f"minisat22,{flips}"
    result = CliRunner().invoke(
        main, ["shrink", str(path), "-s", solvers, "--max-checks", "6", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    shrunk = read_dimacs(str(out))
    assert len(shrunk.clauses) < len(instance.clauses)
    again = Instance("again", shrunk.clauses, shrunk.nvars)
    assert shrink_instance(again, CheckOptions(["minisat22", flips]), max_checks=1) is not None


def test_a_crash_is_shrunk_only_to_a_crash_of_the_same_kind(tmp_path):
    # a program with two bugs: value lines without their final 0 (exit 10), and a
    # segfault on formulas of fewer than 5 clauses. Shrinking must keep the first, not
    # slip into the second because both are "crash" (audit 17-C #1)
    program = tmp_path / "two-bugs"
    program.write_text(
        f"#!{sys.executable}\n"
        "import os, signal, sys\n"
        "lines = open(sys.argv[1]).read().split('\\n')\n"
        "clauses = [line for line in lines if line.strip() and line[0] not in 'cp']\n"
        "if len(clauses) < 5:\n"
        "    os.kill(os.getpid(), signal.SIGSEGV)\n"
        "print('s SATISFIABLE')\n"
        "print('v 1')\n"
        "sys.exit(10)\n"
    )
    program.chmod(0o755)
    formula = random_ksat(3, 20)
    instance = Instance("two-bugs", formula.clauses, formula.nvars)
    result = shrink_instance(instance, CheckOptions(["minisat22", f"bin:{program}"], timeout=30))
    assert result is not None
    kinds = {failure for _solver, failure in result.failures}
    assert kinds == {"crash (exit 10, unreadable output: value lines do not end with N)"}
    assert len(result.clauses) == 5  # the smallest formula that still shows that crash
    assert failure_signature(result.record) == result.failures


def _ctrl_c_at_check(monkeypatch, number):
    """Make the `number`-th cross-check of the shrinker raise KeyboardInterrupt (as Ctrl-C,
    or SIGTERM, does)."""
    import crosscheck.shrink

    real_check = crosscheck.shrink.check_instance
    calls = []

    def check(*args):
        calls.append(args)
        if len(calls) == number:
            raise KeyboardInterrupt
        return real_check(*args)

    monkeypatch.setattr(crosscheck.shrink, "check_instance", check)


def test_a_shrink_stopped_by_ctrl_c_says_so_in_its_file_and_its_line(flips, tmp_path, monkeypatch):
    # the file looked finished: only --max-checks was marked (audit 19-B #6)
    from click.testing import CliRunner

    from formats.dimacs import read_dimacs, write_dimacs
    from formats.formula import Formula
    from satkit import main

    instance = _failing_ksat(CheckOptions(["minisat22", flips], timeout=30))
    path = tmp_path / "fails.cnf"
    write_dimacs(Formula(nvars=instance.nvars, clauses=instance.clauses), str(path))
    _ctrl_c_at_check(monkeypatch, 12)
    result = CliRunner().invoke(main, ["shrink", str(path), "-s", f"minisat22,{flips}"])
    assert result.exit_code == 0, result.output
    assert "interrupted: the smallest failing CNF so far is written" in result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("shrunk "))
    assert line.endswith(f" in 12 checks ({flips} disagree), interrupted")
    comment = read_dimacs(str(tmp_path / "fails.min.cnf")).comments[1]
    assert comment.endswith(f" in 12 checks ({flips} disagree), interrupted")


def test_ctrl_c_in_the_re_checks_is_no_flaky_solver_and_leaves_the_formula_unmarked(
    flips, monkeypatch
):
    # the re-check that Ctrl-C stopped was counted as one that did not fail: "failed again
    # in 1 of 2 re-checks (a flaky solver?)" and ", interrupted" for a formula shrunk to
    # the end (audit 26-B F3)
    options = CheckOptions(["minisat22", flips], timeout=30)
    instance = _failing_ksat(options)
    full = shrink_instance(instance, options)
    assert full is not None and (full.rechecks, full.refailed, full.rechecks_cut) == (2, 2, 0)
    for done in (0, 1):  # Ctrl-C in the first re-check, then in the second
        _ctrl_c_at_check(monkeypatch, full.checks + done + 1)
        result = shrink_instance(instance, options)
        monkeypatch.undo()
        assert result is not None and not result.interrupted and result.was_interrupted()
        assert (result.clauses, result.nvars, result.checks) == (
            full.clauses, full.nvars, full.checks,
        )  # fmt: skip
        assert (result.rechecks, result.refailed, result.rechecks_cut) == (done, done, 2 - done)
        assert result.stopped_early() == ""
        assert result.flaky() == f"; re-checks interrupted after {done} of 2"
    # a re-check that finished without failing is still said, with the cut one
    flaky = dataclasses.replace(full, rechecks=1, refailed=0, rechecks_cut=1)
    assert flaky.flaky() == (
        "; failed again in 0 of 1 re-checks (a flaky solver?); re-checks interrupted after 1 of 2"
    )


def test_the_shrink_command_says_ctrl_c_in_the_re_checks_as_such(flips, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from formats.dimacs import read_dimacs, write_dimacs
    from formats.formula import Formula
    from satkit import main

    options = CheckOptions(["minisat22", flips], timeout=30)
    instance = _failing_ksat(options)
    full = shrink_instance(instance, options)
    assert full is not None
    path = tmp_path / "fails.cnf"
    write_dimacs(Formula(nvars=instance.nvars, clauses=instance.clauses), str(path))
    _ctrl_c_at_check(monkeypatch, full.checks + 2)  # in the second re-check
    result = CliRunner().invoke(main, ["shrink", str(path), "-s", f"minisat22,{flips}"])
    assert result.exit_code == 0, result.output
    assert result.stderr == "interrupted in the re-checks: the shrunk CNF is written\n"
    line = next(line for line in result.stdout.splitlines() if line.startswith("shrunk "))
    ending = f" in {full.checks} checks ({flips} disagree); re-checks interrupted after 1 of 2"
    assert line.endswith(ending)
    assert read_dimacs(str(tmp_path / "fails.min.cnf")).comments[1].endswith(ending)


class _WrongTheFirstTime(_FlipsWithThree):
    """Test-only, flaky: claims UNSAT the first time it sees a satisfiable formula, right from
    then on (formulas seen are marked in the folder ``seen``: checks run in other processes)."""

    seen = None

    def __init__(self, bootstrap_with=None, **_options):
        self.clauses = [list(clause) for clause in bootstrap_with or []]
        super().__init__(bootstrap_with=self.clauses)

    def solve(self, assumptions=()):
        verdict = self.inner.solve(assumptions)
        mark = self.seen / hashlib.sha256(repr(self.clauses).encode()).hexdigest()
        if verdict and not mark.exists():
            mark.touch()
            return False
        return verdict


def test_a_shrunk_formula_that_does_not_fail_again_is_called_flaky(flips, tmp_path):
    # the shrinker keeps every candidate that fails once, so a flaky solver's shrunk formula
    # may not fail again; its file and line said nothing of that (review 19)
    _WrongTheFirstTime.seen = tmp_path
    register_solver("test:wrong-the-first-time", _WrongTheFirstTime)
    try:
        formula = random_ksat(0, 12)
        instance = Instance("flaky", formula.clauses, formula.nvars)
        options = CheckOptions(["minisat22", "test:wrong-the-first-time"], timeout=30)
        flaky = shrink_instance(instance, options)
    finally:
        unregister_solver("test:wrong-the-first-time")
    assert flaky is not None and (flaky.rechecks, flaky.refailed) == (2, 0)
    assert flaky.flaky() == "; failed again in 0 of 2 re-checks (a flaky solver?)"
    # a solver that fails every time: re-checked, and nothing said
    steady = shrink_instance(
        _failing_ksat(CheckOptions(["minisat22", flips], timeout=30)),
        CheckOptions(["minisat22", flips], timeout=30),
    )
    assert steady is not None and (steady.rechecks, steady.refailed) == (2, 2)
    assert steady.flaky() == ""


def test_the_shrink_command_says_when_its_result_is_flaky(tmp_path):
    from click.testing import CliRunner

    from formats.dimacs import write_dimacs
    from formats.formula import Formula
    from satkit import main

    seen = tmp_path / "seen"
    seen.mkdir()
    _WrongTheFirstTime.seen = seen
    formula = random_ksat(0, 12)
    path = tmp_path / "fails.cnf"
    write_dimacs(Formula(nvars=formula.nvars, clauses=formula.clauses), str(path))
    out = tmp_path / "small.cnf"
    register_solver("test:wrong-the-first-time", _WrongTheFirstTime)
    try:
        result = CliRunner().invoke(
            main, ["shrink", str(path), "-s", "minisat22,test:wrong-the-first-time", "-o", str(out)]
        )
    finally:
        unregister_solver("test:wrong-the-first-time")
    assert result.exit_code == 0, result.output
    flaky = "; failed again in 0 of 2 re-checks (a flaky solver?)"
    assert flaky in result.output
    assert flaky in out.read_text(encoding="utf-8").splitlines()[1]


def test_the_parts_of_a_maze_it_checks_are_still_a_maze_formula(monkeypatch):
    # a maze's formula is shrunk as plain CNF: dpll must search it with the maze options
    # all the same, or a failure tied to them would not be kept (review 23)
    from pathlib import Path

    import crosscheck.shrink
    from crosscheck.instances import maze_instance
    from maze.parser import read_maze

    seen = []

    def check(candidate, _options):
        seen.append(candidate)
        return {"verdict": "ok", "runs": {}}

    monkeypatch.setattr(crosscheck.shrink, "check_instance", check)
    maze = read_maze(Path(__file__).resolve().parents[1] / "data" / "maze" / "example.txt")
    assert shrink_instance(maze_instance(maze, "ex"), CheckOptions(["dpll"])) is None
    assert seen and all(c.kind == "cnf" and c.maze_formula for c in seen)
    plain = Instance("plain", [[1, 2], [-1]], 2)
    shrink_instance(plain, CheckOptions(["dpll"]))
    assert not seen[-1].maze_formula


class _GivesUpOnOne(_FlipsWithThree):
    """Test-only: answers nothing, as a solver stopped by its deadline does, when a clause
    holds literal 1 (a timeout that needs no clock); right otherwise."""

    def __init__(self, bootstrap_with=None, **_options):
        self.clauses = [list(clause) for clause in bootstrap_with or []]
        super().__init__(bootstrap_with=self.clauses)

    def solve(self, assumptions=()):
        verdict = self.inner.solve(assumptions)
        return None if any(1 in clause for clause in self.clauses) else verdict


def test_with_timeouts_a_hang_is_shrunk_to_what_makes_it_hang():
    # a hang could not be shrunk: the first check found "no failure" (audit 27-C #2)
    register_solver("test:gives-up-on-1", _GivesUpOnOne)
    try:
        clauses = [[2, -3, 4], [-2, 5], [3, 1, -6], [6, -4], [-5, 7], [4, 7, 2], [-7, 3]]
        instance = Instance("hangs", clauses, 7)
        options = CheckOptions(["dpll", "test:gives-up-on-1"], timeout=30)
        assert shrink_instance(instance, options) is None  # a timeout is no failure
        result = shrink_instance(instance, options, timeouts=True)
    finally:
        unregister_solver("test:gives-up-on-1")
    assert result is not None
    assert (result.clauses, result.nvars) == ([[1]], 1)
    assert result.failures == frozenset({("test:gives-up-on-1", "timeout")})
    assert (result.rechecks, result.refailed) == (2, 2)


def test_a_timeout_is_a_failure_only_when_asked_and_a_hang_is_no_unknown_answer():
    record = {
        "runs": {
            "dpll": {"outcome": "agree", "detail": ""},
            "bin:a": {"outcome": "timeout", "detail": "no answer within 0.5 s"},
            "bin:b": {"outcome": "timeout", "detail": "answered UNKNOWN"},
            "bin:c": {"outcome": "crash", "detail": "bin:c was killed by signal 11: "},
        }
    }
    assert failure_signature(record) == {("bin:c", "crash (signal 11)")}
    assert failure_signature(record, timeouts=True) == {
        ("bin:a", "timeout"),
        ("bin:b", "timeout (answered UNKNOWN)"),  # shrinking a hang never ends at an answer
        ("bin:c", "crash (signal 11)"),
    }
