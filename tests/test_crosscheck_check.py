"""crosscheck.check: every named outcome, produced by real (and deliberately broken) solvers."""

from __future__ import annotations

import shutil
import time

import pytest

import crosscheck.check as check_module
from crosscheck.check import SEARCH, CheckOptions, Run, check_instance, judge, verdict_of
from crosscheck.instances import Instance, maze_instance
from crosscheck.registry import register_solver, unregister_solver
from dpll import Solver
from maze.parser import parse_maze

SAT = Instance("sat", [[1, 2], [-1, 3], [-3, -2], [2, 3]], 3)
UNSAT = Instance("unsat", [[1, 2], [3, 4], [5, 6], [-1, -3], [-1, -5], [-3, -5],
                           [-2, -4], [-2, -6], [-4, -6]], 6)  # fmt: skip
SMALL_TEXT = (
    "START A B\nGOLD WAND\n3\nSTART TREASURES NEXT A B\n"
    "A TREASURES GOLD NEXT START\nB TREASURES WAND NEXT START\n"
)


class _Wrapper:
    """Test-only base: our solver behind the minimal surface crosscheck uses."""

    def __init__(self, bootstrap_with=None, **_options):
        self.inner = Solver(bootstrap_with=bootstrap_with)
        self.clauses = [list(c) for c in bootstrap_with or []]

    def solve(self, assumptions=()):
        return self.inner.solve(assumptions)

    def get_model(self):
        return self.inner.get_model()

    def accum_stats(self):
        return self.inner.accum_stats()

    def delete(self):
        self.inner.delete()


class SaysUnsat(_Wrapper):
    def solve(self, assumptions=()):
        return False


class SaysSat(_Wrapper):
    def solve(self, assumptions=()):
        self.inner.solve()
        return True

    def get_model(self):
        return list(range(1, 7))


class BadModel(_Wrapper):
    def get_model(self):
        return [-abs(lit) for lit in self.inner.get_model()]  # all false: breaks [1, 2]


class Beyond(_Wrapper):
    def get_model(self):
        return [*self.inner.get_model(), -4]


class Crashes(_Wrapper):
    def solve(self, assumptions=()):
        raise RuntimeError("boom")


class Sleeps(_Wrapper):
    def solve(self, assumptions=()):
        time.sleep(60)
        return True


FAULTY = {
    "test:says-unsat": SaysUnsat,
    "test:says-sat": SaysSat,
    "test:bad-model": BadModel,
    "test:beyond": Beyond,
    "test:crashes": Crashes,
    "test:sleeps": Sleeps,
}


@pytest.fixture(autouse=True, scope="module")
def faulty_solvers():
    for name, factory in FAULTY.items():
        register_solver(name, factory)
    yield
    for name in FAULTY:
        unregister_solver(name)


def runs_of(record):
    return {name: (run["status"], run["outcome"]) for name, run in record["runs"].items()}


def test_agreement_with_models_and_proofs():
    options = CheckOptions(["dpll", "dpll:classic", "minisat22"], timeout=30, proofs=True)
    record = check_instance(SAT, options)
    assert record["verdict"] == "agree" and record["answer"] == "SAT"
    assert record["solvers"] == ["dpll:cdcl", "dpll:classic", "minisat22"]
    assert set(runs_of(record).values()) == {("SAT", "agree")}
    record = check_instance(UNSAT, options)
    assert record["verdict"] == "agree" and record["answer"] == "UNSAT"
    assert record["runs"]["dpll:cdcl"]["proof"] == "verified"
    assert record["runs"]["dpll:classic"]["proof"] == "verified"
    # minisat22 traces no proof: its UNSAT says it went unchecked (audit 20-B #2)
    assert record["runs"]["minisat22"]["proof"] == "unchecked: minisat22 gives no proof"


def test_disagreement_on_a_satisfiable_instance():
    record = check_instance(SAT, CheckOptions(["dpll", "test:says-unsat"], timeout=30))
    assert record["verdict"] == "disagree" and record["answer"] == "SAT"
    run = record["runs"]["test:says-unsat"]
    assert run["outcome"] == "disagree"
    assert run["detail"] == "says UNSAT, but the model of dpll:cdcl satisfies every clause"
    assert record["runs"]["dpll:cdcl"]["outcome"] == "agree"


def test_a_false_sat_claim_is_an_invalid_model_not_a_disagreement():
    record = check_instance(UNSAT, CheckOptions(["minisat22", "test:says-sat"], timeout=30))
    assert runs_of(record) == {"minisat22": ("UNSAT", "agree"),
                               "test:says-sat": ("SAT", "invalid-model")}  # fmt: skip
    assert record["verdict"] == "invalid-model"
    # the UNSAT is not believed unchecked against a SAT claim, even a broken one; a
    # verified proof of ours settles it
    assert record["answer"] is None
    assert record["runs"]["minisat22"]["detail"] == (
        "unconfirmed: test:says-sat said SAT, with no valid model"
    )
    options = CheckOptions(["dpll", "minisat22", "test:says-sat"], timeout=30, proofs=True)
    record = check_instance(UNSAT, options)
    assert record["answer"] == "UNSAT" and record["runs"]["dpll:cdcl"]["proof"] == "verified"
    assert "detail" not in record["runs"]["minisat22"]


def test_an_unsat_claim_against_a_broken_sat_claim_is_no_answer():
    # the formula is satisfiable: crediting the liar's UNSAT recorded a wrong answer
    # (audit 17-C #3)
    record = check_instance(SAT, CheckOptions(["test:says-unsat", "test:bad-model"], timeout=30))
    assert runs_of(record) == {"test:says-unsat": ("UNSAT", "agree"),
                               "test:bad-model": ("SAT", "invalid-model")}  # fmt: skip
    assert record["verdict"] == "invalid-model" and record["answer"] is None


def test_a_model_naming_variables_beyond_the_formula_is_invalid():
    # an off-by-N numbering bug: the clauses are satisfied, the answer is still wrong
    # (audit 17-C #2)
    record = check_instance(SAT, CheckOptions(["minisat22", "test:beyond"], timeout=30))
    run = record["runs"]["test:beyond"]
    assert (run["outcome"], run["detail"]) == (
        "invalid-model", "the model gives variable 4 a value, but the formula has 3 variables")
    # variables the header declares beyond those the clauses use may be named
    wide = Instance("wide", SAT.clauses, 5)
    assert check_instance(wide, CheckOptions(["test:beyond"], timeout=30))["verdict"] == "agree"


def test_invalid_model():
    record = check_instance(SAT, CheckOptions(["test:bad-model"], timeout=30))
    assert record["verdict"] == "invalid-model" and record["answer"] is None
    assert record["runs"]["test:bad-model"]["detail"].startswith("clause ")


def test_crash_and_timeout_are_named():
    options = CheckOptions(["test:crashes", "test:sleeps", "minisat22"], timeout=0.5)
    record = check_instance(SAT, options)
    assert runs_of(record)["test:crashes"] == ("crash", "crash")
    assert record["runs"]["test:crashes"]["detail"] == "RuntimeError: boom"
    assert runs_of(record)["test:sleeps"] == ("timeout", "timeout")
    assert record["verdict"] == "crash" and record["answer"] == "SAT"


def test_an_invalid_proof_is_caught(monkeypatch):
    real = check_module.make_solver

    class TruncatedProof:
        def __init__(self, solver):
            self.solver = solver

        def __getattr__(self, name):
            return getattr(self.solver, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.solver.delete()

        def get_proof(self):
            return ["0"]  # only the empty clause: not RUP from the input

    monkeypatch.setattr(check_module, "make_solver", lambda *a, **k: TruncatedProof(real(*a, **k)))
    record = check_instance(UNSAT, CheckOptions(["dpll"], timeout=30, proofs=True))
    run = record["runs"]["dpll:cdcl"]
    assert (run["outcome"], run["proof"]) == ("invalid-proof", "rejected")
    assert "dratify rejects the proof" in run["detail"]
    assert record["verdict"] == "invalid-proof"


def test_our_timeout_uses_the_time_budget():
    hard = Instance("php", _pigeonhole(9), 90)
    record = check_instance(hard, CheckOptions(["dpll"], timeout=0.3))
    assert record["runs"]["dpll:cdcl"]["status"] == "timeout"
    assert record["verdict"] == "timeout" and record["answer"] is None


def _pigeonhole(holes: int) -> list[list[int]]:
    pigeons = holes + 1

    def var(p: int, h: int) -> int:
        return p * holes + h + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
    for h in range(holes):
        for p in range(pigeons):
            for q in range(p + 1, pigeons):
                clauses.append([-var(p, h), -var(q, h)])
    return clauses


def test_maze_answers_are_decoded_and_compared_with_the_search():
    instance = maze_instance(parse_maze(SMALL_TEXT, "small"), "small")
    record = check_instance(instance, CheckOptions(["dpll", "minisat22"], timeout=30))
    assert record["verdict"] == "agree" and record["answer"] == "SAT"
    assert record["runs"][SEARCH]["status"] == "SAT"
    paths = {record["runs"][name]["path"] for name in ("dpll:cdcl", "minisat22", SEARCH)}
    assert paths <= {"START A START B", "START B START A"}


def test_an_encoding_that_lies_is_bad_input_not_a_solver_failure():
    # a model that satisfies every clause yet is no walk indicts the CNF (a stale file,
    # another maze): the solvers and the search were each right
    maze = parse_maze(SMALL_TEXT, "small")
    honest = maze_instance(maze.with_steps(2), "small-k2")  # K=2: no walk collects both
    lying = Instance("lying", honest.clauses[:-2], honest.nvars, "maze", "", None,
                     honest.key, honest.maze)  # fmt: skip  # "all treasures at the end" dropped
    record = check_instance(lying, CheckOptions(["dpll", "minisat22"], timeout=30))
    assert record["verdict"] == "bad-input" and record["answer"] == "SAT"
    assert record["error"].startswith(
        "lying: the CNF does not encode maze small: the model of dpll:cdcl satisfies every "
        "clause but decodes to no valid walk ("
    )
    assert {run["outcome"] for run in record["runs"].values()} == {"agree"}
    detail = record["runs"]["dpll:cdcl"]["detail"]
    assert "does not hold" in detail or "treasures not collected" in detail
    assert record["runs"][SEARCH]["status"] == "UNSAT"


def test_a_walk_off_the_edges_indicts_the_cnf():
    from maze.cnf import encode

    # START -> A only, GOLD at B (reached from A): K=2 is START A B
    maze = parse_maze("START A B\nGOLD\n2\nSTART TREASURES NEXT A\nA TREASURES NEXT B\n"
                      "B TREASURES GOLD NEXT\n", "line")  # fmt: skip
    cnf = encode(maze.with_steps(1))  # K=1 is unsatisfiable: B is two moves away
    teleport = [c for part in cnf.parts if part.name != "move_on_edges" for c in part.clauses()]
    honest = maze_instance(maze.with_steps(1), "line")
    lying = Instance("teleport", teleport, honest.nvars, "maze", "", None,
                     honest.key, honest.maze)  # fmt: skip
    record = check_instance(lying, CheckOptions(["minisat22"], timeout=30))
    run = record["runs"]["minisat22"]
    assert run["outcome"] == "agree" and run["path"] == "START B"
    assert record["verdict"] == "bad-input"
    assert "no exit from START to B" in run["detail"] and "no exit from START" in record["error"]


def test_unsatisfiable_maze_agrees_with_the_search():
    instance = maze_instance(parse_maze(SMALL_TEXT, "small").with_steps(2), "k2")
    record = check_instance(instance, CheckOptions(["dpll", "minisat22"], timeout=30, proofs=True))
    assert record["verdict"] == "agree" and record["answer"] == "UNSAT"
    assert record["runs"][SEARCH]["status"] == "UNSAT"


def test_the_maze_search_settles_an_unsat_contested_by_a_broken_sat_claim():
    # the layered search is the reference answer for a maze: its "no walk" stands against
    # a SAT claim whose model fails (review 17, design note)
    instance = maze_instance(parse_maze(SMALL_TEXT, "small").with_steps(2), "k2")
    record = check_instance(instance, CheckOptions(["minisat22", "test:says-sat"], timeout=30))
    assert record["answer"] == "UNSAT" and record["verdict"] == "invalid-model"
    assert record["runs"]["minisat22"]["outcome"] == "agree"
    # a maze CNF given as a file may encode something else: the search does not settle it
    # (review 17b #9)
    import dataclasses

    given = dataclasses.replace(instance, kind="maze-cnf")
    record = check_instance(given, CheckOptions(["minisat22", "test:says-sat"], timeout=30))
    assert record["answer"] is None


def test_judge_by_hand():
    options = CheckOptions(["a", "b"], timeout=5)
    runs = [Run("a", "SAT", 0.1, model=[-1, 2, -3]), Run("b", "UNSAT", 0.2)]
    assert judge(SAT, runs, options) == "SAT"
    assert [run.outcome for run in runs] == ["agree", "disagree"]
    assert verdict_of(runs) == "disagree"
    runs = [Run("a", "timeout", 5.0), Run("b", "UNSAT", 0.2)]
    assert judge(UNSAT, runs, options) == "UNSAT"
    assert verdict_of(runs) == "timeout"
    assert verdict_of([]) == "agree"


def test_more_variables_than_memory_is_bad_input_as_in_solve():
    # `satkit solve` refuses it as bad input; crosscheck called it a crash of our solver
    huge = Instance("huge.cnf", [[1, -2_000_000_000], [2_000_000_000]], 2_000_000_000)
    record = check_instance(huge, CheckOptions(["dpll"], timeout=30))
    assert record["verdict"] == "bad-input" and record["runs"] == {}
    assert record["error"].startswith("huge.cnf: 2,000,000,000 variables need about ")


# ---------------------------------------------- every solver's UNSAT proof (audit 20-B #2)


def test_the_proofs_of_pysat_solvers_are_checked():
    options = CheckOptions(["cadical153", "glucose4", "lingeling"], timeout=30, proofs=True)
    record = check_instance(UNSAT, options)
    assert record["verdict"] == "agree" and record["answer"] == "UNSAT"
    assert {run["proof"] for run in record["runs"].values()} == {"verified"}
    # a SAT answer needs no proof; without --proofs none is asked for
    record = check_instance(SAT, options)
    assert not any("proof" in run for run in record["runs"].values())
    record = check_instance(UNSAT, CheckOptions(["cadical153"], timeout=30))
    assert "proof" not in record["runs"]["cadical153"]


class LyingProof:
    """A real PySAT solver whose proof is only the empty clause (not RUP from the input)."""

    def __init__(self, solver):
        self.solver = solver

    def __getattr__(self, name):
        return getattr(self.solver, name)

    def get_proof(self):
        return ["0"]


def test_a_tampered_pysat_proof_is_rejected(monkeypatch):
    real = check_module.make_solver

    def make(name, **options):
        solver = real(name, **options)
        return LyingProof(solver) if options.get("with_proof") else solver

    monkeypatch.setattr(check_module, "make_solver", make)
    record = check_instance(UNSAT, CheckOptions(["glucose4"], timeout=30, proofs=True))
    run = record["runs"]["glucose4"]
    assert (run["outcome"], run["proof"]) == ("invalid-proof", "rejected")
    assert run["detail"].startswith("dratify rejects the proof")
    assert record["verdict"] == "invalid-proof"


def test_an_unsat_answer_without_a_proof_says_so():
    options = CheckOptions(["minisat22", "maplesat", "maplecm", "cadical153"], timeout=30,
                           proofs=True)  # fmt: skip
    record = check_instance(UNSAT, options)
    runs = record["runs"]
    assert runs["minisat22"]["proof"] == "unchecked: minisat22 gives no proof"
    # proofs that dratify rejects for the solver's own reasons are not asked for
    assert runs["maplesat"]["proof"].startswith("unchecked: maplesat gives no proof fit to check")
    assert runs["maplecm"]["proof"].startswith("unchecked: maplecm gives no proof fit to check")
    assert runs["cadical153"]["proof"] == "verified"
    assert record["verdict"] == "agree" and record["answer"] == "UNSAT"


@pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical is not on PATH")
def test_the_proof_of_bin_cadical_is_checked():
    record = check_instance(UNSAT, CheckOptions(["bin:cadical"], timeout=30, proofs=True))
    run = record["runs"]["bin:cadical"]
    assert (run["status"], run["outcome"], run["proof"]) == ("UNSAT", "agree", "verified")
    assert "detail" not in run  # a verified proof confirms a lone answer


def _fake_solver(folder, name, proof):
    """A program called ``name`` that answers UNSAT and writes ``proof`` to its last
    argument when it is called as cadical and kissat are asked for a text proof."""
    path = folder / name
    path.write_text(
        "#!/bin/sh\n"
        '[ "$1 $2" = "-q --no-binary" ] || { echo "c wrong options: $*"; exit 1; }\n'
        f"printf -- '{proof}' > \"$4\"\n"
        "echo 's UNSATISFIABLE'\n"
        "exit 20\n"
    )
    path.chmod(0o755)
    return f"bin:{path}"


@pytest.mark.parametrize("program", ["cadical", "kissat"])
def test_a_program_named_cadical_or_kissat_is_asked_for_a_text_proof(tmp_path, program):
    # kissat is not installed here: a stand-in named like it shows the call it gets
    (tmp_path / "good").mkdir()
    (tmp_path / "bad").mkdir()
    right = "-2 0\\n-4 0\\n-6 0\\n0\\n"  # RUP step by step on UNSAT (pigeonhole 3 into 2)
    good = _fake_solver(tmp_path / "good", program, right)
    bad = _fake_solver(tmp_path / "bad", program, "0\\n")
    record = check_instance(UNSAT, CheckOptions([good, bad], timeout=30, proofs=True))
    assert record["runs"][good]["proof"] == "verified"
    assert (record["runs"][bad]["outcome"], record["runs"][bad]["proof"]) == (
        "invalid-proof", "rejected")  # fmt: skip
    assert record["verdict"] == "invalid-proof"


def test_an_unsat_that_a_model_refutes_has_no_proof_to_miss(tmp_path):
    # a cadical that wrote no proof was 'unchecked: … wrote no proof file' beside its
    # disagree, and counted in the proofs line, though no proof is checked then (21-C #3)
    script = tmp_path / "cadical"
    script.write_text("#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n")
    script.chmod(0o755)
    liar = f"bin:{script}"
    record = check_instance(SAT, CheckOptions(["dpll", liar], timeout=30, proofs=True))
    assert record["verdict"] == "disagree"
    assert record["runs"][liar]["outcome"] == "disagree" and "proof" not in record["runs"][liar]
    record = check_instance(UNSAT, CheckOptions(["dpll", liar], timeout=30, proofs=True))
    assert record["runs"][liar]["proof"] == f"unchecked: {liar} wrote no proof file"


def test_an_unsat_that_one_solver_gave_alone_is_unconfirmed(tmp_path):
    script = tmp_path / "saysunsat"
    script.write_text("#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n")
    script.chmod(0o755)
    liar = f"bin:{script}"
    # the formula is satisfiable, but the only other solver times out
    record = check_instance(SAT, CheckOptions([liar, "test:sleeps"], timeout=0.5, proofs=True))
    run = record["runs"][liar]
    assert record["answer"] == "UNSAT" and record["verdict"] == "timeout"  # fails nothing
    assert (run["outcome"], run["detail"]) == ("agree", check_module.LONE_UNSAT)
    assert run["proof"] == f"unchecked: {liar} gives no proof"
    # a second answer, or a verified proof, confirms it
    record = check_instance(UNSAT, CheckOptions([liar, "minisat22"], timeout=30))
    assert "detail" not in record["runs"][liar]
    record = check_instance(UNSAT, CheckOptions(["dpll", "test:sleeps"], timeout=0.5, proofs=True))
    assert record["runs"]["dpll:cdcl"]["proof"] == "verified"
    assert "detail" not in record["runs"]["dpll:cdcl"]
    # without --proofs our own lone UNSAT is no better
    record = check_instance(UNSAT, CheckOptions(["dpll", "test:sleeps"], timeout=0.5))
    assert record["runs"]["dpll:cdcl"]["detail"] == "unconfirmed: no other solver answered"


@pytest.mark.parametrize("limit", ["available_memory", "machine"])
def test_a_proof_file_too_big_for_the_free_memory_is_unchecked_not_ok(monkeypatch, limit):
    # the memory left counts a container's cgroup and ulimit -v (available_memory), not
    # only the machine's free memory (carried over since stop 20); the machine's when
    # nothing else is known
    from types import SimpleNamespace

    if limit == "available_memory":
        monkeypatch.setattr(check_module, "available_memory", lambda: 100)
    else:
        monkeypatch.setattr(check_module, "available_memory", lambda: None)
        monkeypatch.setattr(
            check_module.psutil, "virtual_memory", lambda: SimpleNamespace(available=100)
        )
    record = check_instance(UNSAT, CheckOptions(["cadical153"], timeout=30, proofs=True))
    run = record["runs"]["cadical153"]
    assert run["outcome"] == "agree" and run["detail"] == check_module.LONE_UNSAT
    assert run["proof"].startswith(
        "unchecked: the proof (0 MB) needs about 0 MB of memory to check; 0 MB are available"
    )


def test_a_proof_still_being_written_at_the_deadline_gets_its_grace(monkeypatch):
    # a PySAT solver that answered UNSAT in time, then wrote a big proof past the deadline,
    # was killed and reported as a timeout (carried over since stop 20)
    writer = check_module._write_proof

    def slow_writer(name, solver, path):
        time.sleep(3)  # (the child's; the deadline below is 1 s)
        return writer(name, solver, path)

    monkeypatch.setattr(check_module, "_write_proof", slow_writer)
    record = check_instance(UNSAT, CheckOptions(["cadical153", "dpll"], timeout=1, proofs=True))
    run = record["runs"]["cadical153"]
    assert (run["status"], run["outcome"], run["proof"]) == ("UNSAT", "agree", "verified")
    # and when even the grace is not enough, the answer stands and the proof is unchecked
    monkeypatch.setattr(check_module, "PROOF_GRACE", 0.5)
    record = check_instance(UNSAT, CheckOptions(["cadical153", "dpll"], timeout=1, proofs=True))
    run = record["runs"]["cadical153"]
    assert (run["status"], run["outcome"]) == ("UNSAT", "agree")
    assert run["proof"] == "unchecked: writing the proof took more than 1 s"


def test_dpll_searches_a_maze_as_maze_solve_does():
    # crosscheck, fuzz and shrink gave dpll the engine's defaults on mazes, so its figures
    # there did not describe `satkit maze solve` (audit 23-B #1)
    from pathlib import Path

    from maze.cnf import encode
    from maze.parser import read_maze
    from maze.pipeline import DPLL_OPTIONS

    maze = read_maze(Path(__file__).resolve().parents[1] / "data" / "maze" / "gen-60-oneway.txt")
    instance = maze_instance(maze, "gen-60-oneway")
    record = check_instance(instance, CheckOptions(["dpll", "dpll:cdcl/vsids-numbered"]))
    clauses = encode(maze, "assignment").clause_list()
    with Solver(bootstrap_with=clauses, **DPLL_OPTIONS) as solver:
        assert solver.solve() is True
        assert record["runs"]["dpll:cdcl"]["stats"] == solver.accum_stats()
    # a named heuristic gets what it names, as in `maze solve --solver`
    with Solver(bootstrap_with=clauses, heuristic="vsids-numbered") as solver:
        assert solver.solve() is True
        assert record["runs"]["dpll:cdcl/vsids-numbered"]["stats"] == solver.accum_stats()
