"""crosscheck.fuzz: a fixed-seed run of 1,000 instances agrees, and deliberately faulty
solvers are caught, saved, shrunk to at most 10 clauses, and reproducible."""

from __future__ import annotations

import hashlib
import json
import shlex
from collections import Counter

import pytest
from click.testing import CliRunner

from crosscheck.check import CheckOptions
from crosscheck.fuzz import (
    FuzzOptions,
    check_command,
    fuzz_instance,
    is_failure,
    regenerate_command,
    run_fuzz,
    save_failure,
    save_timeout,
)
from crosscheck.registry import register_solver, unregister_solver
from dpll import Solver
from formats.dimacs import read_dimacs
from satkit import main


class _Faulty:
    """Test-only base: our CDCL behind the surface crosscheck uses, with a fault hook."""

    def __init__(self, bootstrap_with=None, **_options):
        self.clauses = [list(c) for c in bootstrap_with or []]
        # without the lucky phases, whose all-false first attempt satisfies most small
        # formulas: the faults below depend on the model found (variable 1 true)
        self.inner = Solver(bootstrap_with=self.clauses, lucky=False)
        self.model = None

    def solve(self, assumptions=()):
        verdict = self.inner.solve(assumptions)
        self.model = self.inner.get_model() if verdict else None
        return self.fault(verdict)

    def fault(self, verdict):
        return verdict

    def get_model(self):
        return self.model

    def accum_stats(self):
        return self.inner.accum_stats()

    def delete(self):
        self.inner.delete()


class FlipsWhenOneIsTrue(_Faulty):
    """Claims UNSAT whenever its model sets variable 1 true."""

    def fault(self, verdict):
        if verdict and self.model and self.model[0] == 1:
            self.model = None
            return False
        return verdict


class CorruptsLongClauseModels(_Faulty):
    """When the formula has a clause of 4 or more literals, flips variable 2 in its model."""

    def fault(self, verdict):
        if verdict and any(len(clause) >= 4 for clause in self.clauses) and len(self.model) >= 2:
            self.model[1] = -self.model[1]
        return verdict


class GivesUpOnLongClauses(_Faulty):
    """Answers nothing, as a solver stopped by its time limit does, when a clause has 6 or
    more literals: a timeout that needs no clock."""

    def fault(self, verdict):
        return None if any(len(clause) >= 6 for clause in self.clauses) else verdict


class FailsOnce(_Faulty):
    """A flaky solver: claims UNSAT the first time it sees a satisfiable formula, and is right
    from then on. The formulas seen are marked in the folder ``seen`` (solvers run in
    forked processes, which share no memory)."""

    seen = None

    def fault(self, verdict):
        mark = self.seen / hashlib.sha256(repr(self.clauses).encode()).hexdigest()
        if verdict and not mark.exists():
            mark.touch()
            return False
        return verdict


class RepeatedLiteralIsUnsat(_Faulty):
    """Claims UNSAT when a clause has a literal twice (a reader that mishandles them)."""

    def fault(self, verdict):
        if any(len(set(clause)) < len(clause) for clause in self.clauses):
            self.model = None
            return False
        return verdict


FAULTY = {
    "test:repeat-unsat": RepeatedLiteralIsUnsat,
    "test:flip-1": FlipsWhenOneIsTrue,
    "test:corrupt-2": CorruptsLongClauseModels,
    "test:gives-up": GivesUpOnLongClauses,
    "test:fails-once": FailsOnce,
}


@pytest.fixture(scope="module", autouse=True)
def faulty_solvers():
    for name, factory in FAULTY.items():
        register_solver(name, factory)
    yield
    for name in FAULTY:
        unregister_solver(name)


@pytest.mark.slow
def test_a_thousand_instances_with_a_fixed_seed_all_agree():
    """The CI fuzz run: 1,000 small instances (cnfuzz, k-SAT, mazes) against MiniSat."""
    options = FuzzOptions(
        count=1000, seed=20240501, max_vars=40, jobs=2,
        check=CheckOptions(["dpll:cdcl", "minisat22"], timeout=60),
    )  # fmt: skip
    records = list(run_fuzz(options))
    assert len(records) == 1000
    assert sorted(r["seed"] for r in records) == list(range(20240501, 20241501))
    failures = [r for r in records if is_failure(r)]
    assert failures == []
    assert Counter(r["verdict"] for r in records) == {"agree": 1000}
    assert Counter(r["family"] for r in records) == {"cnfuzz": 334, "ksat": 333, "maze": 333}
    answers = Counter((r["family"], r["answer"]) for r in records)
    for family in ("cnfuzz", "ksat", "maze"):
        assert answers[family, "SAT"] > 50 and answers[family, "UNSAT"] > 50


@pytest.mark.parametrize(
    ("name", "outcome", "families"),
    [
        ("test:flip-1", "disagree", ("ksat", "cnfuzz", "maze")),
        ("test:corrupt-2", "invalid-model", ("cnfuzz",)),
    ],
)
def test_fuzzing_catches_and_shrinks_a_faulty_solver(tmp_path, name, outcome, families):
    options = FuzzOptions(
        count=12, seed=7, families=families, max_vars=30, jobs=2,
        check=CheckOptions(["minisat22", name], timeout=60),
    )  # fmt: skip
    records = list(run_fuzz(options))
    failures = [r for r in records if is_failure(r)]
    assert failures, "the faulty solver went unnoticed"
    record = min(failures, key=lambda r: r["seed"])
    assert record["runs"][name]["outcome"] == outcome
    saved = save_failure(record, options, str(tmp_path))
    assert saved.shrunk is not None
    assert len(saved.shrunk.clauses) <= 10
    assert saved.shrunk.failures == frozenset({(name, outcome)})
    minimal = read_dimacs(saved.files[-1])
    assert minimal.clauses == saved.shrunk.clauses
    assert minimal.comments[0] == f"reproduce: {saved.reproduce}"
    original = read_dimacs(saved.files[0])
    assert original.comments[0] == f"seed {record['seed']}"
    assert original.clauses == fuzz_instance(record["family"], record["seed"], 30).clauses
    # the one-line command reproduces the failure (same process: the test solver is registered)
    words = saved.reproduce.split()
    assert words[:2] == ["satkit", "crosscheck"]
    result = CliRunner().invoke(main, words[1:])
    assert result.exit_code == 1, result.output
    assert f"{name}: {outcome}" in result.stdout


def test_a_maze_failure_saves_the_maze(tmp_path):
    options = FuzzOptions(
        count=6, seed=0, families=("maze",), max_vars=40,
        check=CheckOptions(["minisat22", "test:flip-1"], timeout=60),
    )  # fmt: skip
    failures = [r for r in run_fuzz(options) if is_failure(r)]
    assert failures
    saved = save_failure(failures[0], options, str(tmp_path))
    assert any(path.endswith(".txt") for path in saved.files)
    assert saved.shrunk is not None and len(saved.shrunk.clauses) <= 10
    # the saved CNF names its atoms and its maze: re-checking it checks paths again
    from crosscheck.instances import load_instance

    again = load_instance(saved.files[0])
    assert again.kind == "maze-cnf" and again.maze is not None


def test_every_instance_is_regenerated_from_its_seed():
    options = FuzzOptions(count=6, seed=100)
    assert [options.case(i) for i in range(4)] == [
        ("cnfuzz", 100), ("ksat", 101), ("maze", 102), ("cnfuzz", 103)
    ]  # fmt: skip
    for family in ("cnfuzz", "ksat", "maze"):
        first, again = fuzz_instance(family, 5, 50), fuzz_instance(family, 5, 50)
        assert first.clauses == again.clauses and first.seed == 5
    assert regenerate_command("ksat", 101, options) == (
        "satkit fuzz --family ksat --seed 101 --count 1 --max-vars 200 "
        "--solvers dpll:cdcl,minisat22"
    )
    with pytest.raises(ValueError, match="unknown fuzz family"):
        fuzz_instance("sudoku", 1)


def test_fuzz_cli_reports_a_failure_with_its_reproduce_line(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main,
        ["fuzz", "-n", "6", "--family", "ksat", "--seed", "7", "--max-vars", "25",
         "--solvers", "minisat22,test:flip-1", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    fail = next(line for line in lines if line.startswith("FAIL ksat seed "))
    assert fail.endswith("test:flip-1 disagree")
    assert any(line.startswith("  shrunk ") for line in lines)
    reproduce = next(line for line in lines if line.startswith("  reproduce: "))
    assert reproduce.startswith(f"  reproduce: satkit crosscheck {out}/ksat-")
    assert reproduce.endswith(".min.cnf --solvers minisat22,test:flip-1")


def test_a_reproduce_command_runs_when_the_folder_starts_with_a_dash(tmp_path, monkeypatch):
    # `--out -x` saved "reproduce: satkit crosscheck -x/ksat-N.min.cnf …": click took the path
    # for an option, "No such option" (audit 26-B F2)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main,
        ["fuzz", "-n", "6", "--family", "ksat", "--seed", "7", "--max-vars", "25",
         "--solvers", "minisat22,test:flip-1", "--out", "-x"],
    )  # fmt: skip
    assert result.exit_code == 1
    reproduce = next(line for line in result.stdout.splitlines() if "reproduce: " in line)
    command = reproduce.split("reproduce: ", 1)[1]
    assert command.startswith("satkit crosscheck ./-x/ksat-")
    path = shlex.split(command)[2]
    assert read_dimacs(path).comments[0] == f"reproduce: {command}"
    again = CliRunner().invoke(main, shlex.split(command)[1:])
    assert again.exit_code == 1 and "test:flip-1" in again.stdout, again.output
    assert check_command("-a b.cnf", CheckOptions(["minisat22"])) == (
        "satkit crosscheck './-a b.cnf' --solvers minisat22"
    )
    assert check_command("-", CheckOptions(["minisat22"])).startswith("satkit crosscheck - ")


def test_fuzz_out_dash_is_a_usage_error_not_a_folder_named_dash(tmp_path, monkeypatch):
    # DESIGN: `-` means stdin/stdout wherever a file is taken; `--out -` made a folder "-"
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["fuzz", "-n", "1", "--out", "-"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--out': '-' is stdin/stdout, not a folder: --out names "
        "the folder that failures are saved in (./- for a folder named '-')"
    )
    assert list(tmp_path.iterdir()) == []


FUZZ_FLIP = ["fuzz", "-n", "6", "--family", "ksat", "--seed", "7", "--max-vars", "25",
             "--solvers", "minisat22,test:flip-1"]  # fmt: skip


def test_fuzz_shows_its_shrinking_on_a_terminal(tmp_path, monkeypatch):
    import crosscheck.cli as cli

    monkeypatch.setattr(cli, "_is_terminal", lambda stream: True)
    result = CliRunner().invoke(main, [*FUZZ_FLIP, "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    fails = [line for line in result.stdout.splitlines() if line.startswith("FAIL ")]
    label = fails[0].split(":")[0].removeprefix("FAIL ")
    assert f"\rshrinking {label} (1 of {len(fails)}): 1 check, " in result.stderr
    assert "\r" not in result.stdout
    quiet = CliRunner().invoke(main, [*FUZZ_FLIP, "--out", str(tmp_path / "q"), "--quiet"])
    assert "shrinking" not in quiet.stderr


def test_every_failure_is_on_disk_before_the_first_shrink(tmp_path, monkeypatch):
    # a SIGKILL during the first shrink left the later failures in the records only
    # (audit 21-C): what is on disk when shrinking starts must be every failure
    import crosscheck.fuzz as fuzz

    on_disk: list[set[str]] = []

    def shrink(*_args, **_kwargs):
        on_disk.append({path.name for path in out.glob("ksat-*.cnf")})
        return None  # (no shrunk form: each is kept as saved)

    monkeypatch.setattr(fuzz, "shrink_instance", shrink)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*FUZZ_FLIP, "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 1
    fails = {f"ksat-{line.split()[3].rstrip(':')}.cnf" for line in result.stdout.splitlines()
             if line.startswith("FAIL ksat seed ")}  # fmt: skip
    assert len(fails) >= 2 and on_disk[0] == fails


def test_ctrl_c_while_fuzz_shrinks_still_saves_and_reports_every_failure(tmp_path, monkeypatch):
    import crosscheck.fuzz as fuzz

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(fuzz, "shrink_instance", interrupted)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*FUZZ_FLIP, "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 1
    assert "Aborted" not in result.output
    assert "interrupted: shrinking stopped; the failures are saved unshrunk" in result.stderr
    lines = result.stdout.splitlines()
    fails = [i for i, line in enumerate(lines) if line.startswith("FAIL ksat seed ")]
    assert len(fails) >= 2  # every failure reported, not only the one being shrunk
    for i in fails:
        assert lines[i + 1].startswith("  saved: ") and lines[i + 2].startswith("  regenerate: ")
        assert lines[i + 2].startswith("  regenerate: satkit fuzz --family ksat --seed ")
    assert len(list(out.glob("ksat-*.cnf"))) == len(fails)


def test_fuzz_saves_each_instance_a_solver_timed_out_on(tmp_path):
    # a hang used to leave nothing behind: no file, no command (audit 19-B #1)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main,
        ["fuzz", "-n", "6", "--family", "cnfuzz", "--family", "maze", "--seed", "1",
         "--max-vars", "30", "--solvers", "minisat22,test:gives-up", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output  # a timeout is still no failure
    lines = result.stdout.splitlines()
    counted = int(lines[1].split(", ")[-1].removesuffix(" timeout"))
    timeouts = [line for line in lines if line.startswith("timeout: ")]
    assert counted == 4 and len(timeouts) == counted  # one line each, none twice
    assert not any(line.startswith("FAIL") for line in lines)
    for line in timeouts:
        name, saved = line.removeprefix("timeout: ").split(" (test:gives-up); saved: ")
        family, seed = name.split("-")
        paths = saved.split()
        assert paths[0] == f"{out}/{name}.cnf"
        formula = read_dimacs(paths[0])
        assert formula.comments[:2] == [f"seed {seed}", f"fuzz family {family}"]
        assert formula.comments[2].startswith(
            f"regenerate: satkit fuzz --family {family} --seed {seed} --count 1 --max-vars 30 "
        )
        assert formula.clauses == fuzz_instance(family, int(seed), 30).clauses
        assert paths[1:] == ([f"{out}/maze-{seed}.txt"] if family == "maze" else [])
    assert "timeout: maze-4 (test:gives-up); saved: " in result.stdout  # with its maze file
    assert not list(out.glob("*.min.cnf"))  # nothing shrunk: a timeout is no failure


def test_fuzz_saves_the_first_timeouts_and_names_the_rest_by_seed(tmp_path, monkeypatch):
    # every timeout was saved and listed: a night of fuzzing with a short --timeout wrote a
    # file per instance (review 19 #6)
    import crosscheck.cli

    monkeypatch.setattr(crosscheck.cli, "_SAVED_TIMEOUTS", 2)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main,
        ["fuzz", "-n", "6", "--family", "cnfuzz", "--family", "maze", "--seed", "1",
         "--max-vars", "30", "--solvers", "minisat22,test:gives-up", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len([line for line in lines if line.startswith("timeout: ")]) == 2
    rest = [line for line in lines if line.startswith("… and ")]
    assert rest == [
        "… and 2 more timeouts, not saved (seeds 4, 5: --seed S --count 1 makes one again)"
    ]
    assert len(list(out.glob("*.cnf"))) == 2


def test_a_failure_that_does_not_fail_again_is_said_so_and_not_claimed_to_reproduce(
    tmp_path, monkeypatch
):
    # it was saved unshrunk without a word, under "reproduce:" (audit 19-B #2)
    monkeypatch.setattr(FailsOnce, "seen", tmp_path / "seen")
    (tmp_path / "seen").mkdir()
    out = tmp_path / "out"
    args = ["fuzz", "-n", "4", "--family", "ksat", "--family", "maze", "--seed", "7",
            "--max-vars", "25", "-s", "minisat22,test:fails-once", "--out", str(out)]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output  # it did fail once: a failure
    lines = result.stdout.splitlines()
    fails = [i for i, line in enumerate(lines) if line.startswith("FAIL ")]
    assert {lines[i].split(" seed ")[0] for i in fails} == {"FAIL ksat", "FAIL maze"}
    for i in fails:
        family, seed = lines[i].removeprefix("FAIL ").split(":")[0].split(" seed ")
        maze = f" {out}/maze-{seed}.txt" if family == "maze" else ""
        assert lines[i + 1 : i + 4] == [
            "  did not fail again when re-checked (a flaky solver?): saved unshrunk",
            f"  saved: {out}/{family}-{seed}.cnf{maze}",
            f"  regenerate: satkit fuzz --family {family} --seed {seed} --count 1 --max-vars 25 "
            f"--solvers minisat22,test:fails-once --out {out}",
        ]
    assert "reproduce:" not in result.stdout and not list(out.glob("*.min.cnf"))
    # the command regenerates the instance into the same folder
    first = next(path for path in out.glob("ksat-*.cnf"))
    regenerate = read_dimacs(str(first)).comments[2].removeprefix("regenerate: ")
    assert regenerate.endswith(f" --out {out}")
    first.unlink()
    for mark in (tmp_path / "seen").iterdir():
        mark.unlink()
    again = CliRunner().invoke(main, regenerate.split()[1:])
    assert again.exit_code == 1 and f"  saved: {first}" in again.stdout
    assert first.exists()


def test_a_maze_failure_that_needs_the_maze_still_reproduces_from_the_maze_file(tmp_path):
    # the only solver claims UNSAT: only the maze search says otherwise, and the plain CNF
    # has nothing to compare it with. That is no flaky solver: the maze file reproduces it
    options = FuzzOptions(
        count=6, seed=0, families=("maze",), max_vars=40,
        check=CheckOptions(["test:flip-1"], timeout=60),
    )  # fmt: skip
    failures = [r for r in run_fuzz(options) if is_failure(r)]
    assert failures
    saved = save_failure(failures[0], options, str(tmp_path))
    assert saved.shrunk is None and not saved.did_not_fail_again
    assert saved.reproduce.startswith(f"satkit crosscheck {tmp_path}/maze-")


def test_an_unshrunk_save_leaves_no_shrunk_file_of_an_earlier_run_beside_it(tmp_path):
    # the old <stem>.min.cnf stayed, so the pair came from two runs (audit 19-B #5)
    options = FuzzOptions(
        count=6, seed=7, families=("ksat",), max_vars=25,
        check=CheckOptions(["minisat22", "test:flip-1"], timeout=60),
    )  # fmt: skip
    record = next(r for r in run_fuzz(options) if is_failure(r))
    stem = tmp_path / f"ksat-{record['seed']}"
    for save in (
        lambda: save_failure(record, options, str(tmp_path), shrink=False),
        lambda: save_timeout(record, options, str(tmp_path)),
    ):
        (tmp_path / f"{stem.name}.min.cnf").write_text("c reproduce: another\np cnf 1 1\n1 0\n")
        saved = save()
        assert saved.files == [f"{stem}.cnf"]
        assert sorted(path.name for path in tmp_path.iterdir()) == [f"{stem.name}.cnf"]
    saved = save_failure(record, options, str(tmp_path))  # shrunk: the pair is this run's
    assert saved.files == [f"{stem}.cnf", f"{stem}.min.cnf"]
    assert read_dimacs(f"{stem}.min.cnf").comments[0] == f"reproduce: {saved.reproduce}"


def ctrl_c_at_check(monkeypatch, n: int) -> None:
    """Make the ``n``-th cross-check that shrinking runs end as Ctrl-C does."""
    import crosscheck.shrink

    real_check = crosscheck.shrink.check_instance
    calls = []

    def check(*args):
        calls.append(args)
        if len(calls) == n:
            raise KeyboardInterrupt
        return real_check(*args)

    monkeypatch.setattr(crosscheck.shrink, "check_instance", check)


def test_a_shrink_stopped_by_ctrl_c_is_marked_in_the_saved_file_and_the_line(
    tmp_path, monkeypatch
):
    # "381 -> 306 clauses in 70 checks" looked finished (audit 19-B #6)
    ctrl_c_at_check(monkeypatch, 5)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*FUZZ_FLIP, "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("FAIL ksat seed "))
    seed = lines[first].split(":")[0].removeprefix("FAIL ksat seed ")
    assert lines[first + 1].startswith("  shrunk ")
    assert lines[first + 1].endswith(" (5 checks, interrupted)")
    comment = read_dimacs(str(out / f"ksat-{seed}.min.cnf")).comments[1]
    assert comment.endswith(" in 5 checks (test:flip-1 disagree), interrupted")


def test_ctrl_c_in_fuzz_rechecks_stops_the_shrinking_but_marks_no_formula(tmp_path, monkeypatch):
    # a re-check that Ctrl-C stopped counted as one that did not fail (audit 26-B F3); the
    # formula is shrunk to the end, but the failures after it are saved unshrunk all the same
    full = CliRunner().invoke(main, [*FUZZ_FLIP, "--out", str(tmp_path / "full")])
    shrunk = next(line for line in full.stdout.splitlines() if line.startswith("  shrunk "))
    checks = int(shrunk.rsplit("(", 1)[1].split()[0])
    ctrl_c_at_check(monkeypatch, checks + 1)  # the first re-check
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*FUZZ_FLIP, "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    fails = [i for i, line in enumerate(lines) if line.startswith("FAIL ksat seed ")]
    assert len(fails) >= 2
    first = fails[0]
    assert lines[first + 1] == shrunk + "; re-checks interrupted after 0 of 2"
    seed = lines[first].split(":")[0].removeprefix("FAIL ksat seed ")
    comment = read_dimacs(str(out / f"ksat-{seed}.min.cnf")).comments[1]
    assert comment.endswith(" checks (test:flip-1 disagree); re-checks interrupted after 0 of 2")
    assert "interrupted: shrinking stopped (this failure is saved shrunk" in result.stderr
    for i in fails[1:]:  # not shrunk after Ctrl-C
        assert lines[i + 1].startswith("  saved: ") and lines[i + 2].startswith("  regenerate: ")


def test_the_edge_family_finds_what_the_others_never_generate(tmp_path):
    # no family wrote a literal twice in a clause, so this bug went unnoticed (audit 19-B #3)
    assert "edge" not in FuzzOptions().families  # runs without --family keep their formulas
    out, log = tmp_path / "out", tmp_path / "fuzz.jsonl"
    args = ["fuzz", "-n", "6", "--family", "edge", "--seed", "0", "--max-vars", "30",
            "-s", "minisat22,test:repeat-unsat", "--out", str(out), "--json", str(log)]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith("fuzz: 6 instances (edge 6) from seed 0;")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert {r["family"] for r in records} == {"edge"}
    assert sorted(r["seed"] for r in records) == list(range(6))
    lines = result.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("FAIL edge seed "))
    seed = int(lines[first].split(":")[0].removeprefix("FAIL edge seed "))
    assert lines[first + 1].startswith("  shrunk ")
    assert " -> 1 clauses over 1 variables " in lines[first + 1]
    (lit, twice), = read_dimacs(str(out / f"edge-{seed}.min.cnf")).clauses  # fmt: skip
    assert lit == twice
    original = read_dimacs(str(out / f"edge-{seed}.cnf"))
    assert original.clauses == fuzz_instance("edge", seed, 30).clauses
    # the saved file says which edge cases went in (review 19 #8)
    edges = [text for text in original.comments if text.startswith("edge:")]
    assert edges and any("twice" in text or "literal" in text for text in edges), edges
    regenerate = original.comments[2].removeprefix("regenerate: ")
    assert regenerate.startswith(f"satkit fuzz --family edge --seed {seed} --count 1 ")
    again = CliRunner().invoke(main, regenerate.split()[1:])
    assert again.exit_code == 1 and f"FAIL edge seed {seed}: " in again.stdout


def test_the_library_refuses_a_negative_seed_as_the_command_does():
    # fuzz_instance("cnfuzz", -7) was seed 7's formula (review 19 #8)
    with pytest.raises(ValueError, match="0 or more"):
        fuzz_instance("cnfuzz", -7)


def test_with_fail_on_timeout_fuzz_reports_shrinks_and_saves_a_timeout_as_a_failure(tmp_path):
    # --fail-on-timeout exited 1 but saved its hangs unshrunk, with a regenerate command
    # that left the option out, so re-running it exited 0 (audit 27-C #2)
    out = tmp_path / "out"
    args = ["fuzz", "-n", "2", "--family", "cnfuzz", "--seed", "1", "--max-vars", "30",
            "--solvers", "minisat22,test:gives-up", "--out", str(out),
            "--fail-on-timeout"]  # fmt: skip
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("fuzz: 2 instances (cnfuzz 2) from seed 1; 2 failures; ")
    assert not any(line.startswith("timeout: ") for line in lines)  # listed as failures
    assert [line for line in lines if line.startswith("FAIL")] == [
        "FAIL cnfuzz seed 1: test:gives-up timeout",
        "FAIL cnfuzz seed 2: test:gives-up timeout",
    ]
    assert result.stderr.endswith("2 instances timed out: --fail-on-timeout\n")
    for seed in (1, 2):
        stem = out / f"cnfuzz-{seed}"
        regenerate = read_dimacs(f"{stem}.cnf").comments[2]
        assert regenerate == (
            f"regenerate: satkit fuzz --family cnfuzz --seed {seed} --count 1 --max-vars 30 "
            f"--solvers minisat22,test:gives-up --timeout 60 --fail-on-timeout --out {out}"
        )
        shrunk = read_dimacs(f"{stem}.min.cnf")
        reproduce = (
            f"satkit crosscheck {stem}.min.cnf --solvers minisat22,test:gives-up --timeout 60 "
            "--fail-on-timeout"
        )
        assert shrunk.comments[0] == f"reproduce: {reproduce}"
        assert shrunk.comments[1].endswith(" (test:gives-up timeout)")
        assert [len(clause) for clause in shrunk.clauses] == [6]  # what makes it give up
        assert f"  reproduce: {reproduce}" in lines
        assert CliRunner().invoke(main, shlex.split(reproduce)[1:]).exit_code == 1
    # the regenerate command fails again, as the run did
    again = CliRunner().invoke(main, shlex.split(regenerate.removeprefix("regenerate: "))[1:])
    assert again.exit_code == 1 and "FAIL cnfuzz seed 2: test:gives-up timeout" in again.stdout


def test_the_commands_of_a_run_with_fail_on_timeout_carry_it():
    options = FuzzOptions(check=CheckOptions(["dpll"], timeout=2), fail_on_timeout=True)
    assert regenerate_command("ksat", 7, options) == (
        "satkit fuzz --family ksat --seed 7 --count 1 --max-vars 200 --solvers dpll "
        "--timeout 2 --fail-on-timeout"
    )
    assert check_command("a.min.cnf", options.check, fail_on_timeout=True) == (
        "satkit crosscheck a.min.cnf --solvers dpll --timeout 2 --fail-on-timeout"
    )
    assert check_command("a.min.cnf", CheckOptions(["dpll"])) == (
        "satkit crosscheck a.min.cnf --solvers dpll"
    )
    timed_out = {"verdict": "timeout", "runs": {"dpll": {"outcome": "timeout"}}}
    assert not is_failure(timed_out) and is_failure(timed_out, timeouts=True)
    assert is_failure({"verdict": "timeout", "runs": {}}, timeouts=True)  # the watchdog's
