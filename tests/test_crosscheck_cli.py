"""satkit crosscheck / fuzz / shrink end to end: outputs, JSON lines, resume, plots, exit codes."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import crosscheck.cli as cli
from crosscheck.instances import load_instance
from crosscheck.plot import PlotUnavailable
from crosscheck.registry import register_solver, unregister_solver
from crosscheck.validate import CheckerMissing
from dpll import Solver
from satkit import main

REPO = Path(__file__).resolve().parents[1]
SMALL_MAZE = REPO / "data" / "maze" / "small.txt"
SAT_CNF = "c sat\np cnf 3 4\n1 2 0\n-1 3 0\n-3 -2 0\n2 3 0\n"
UNSAT_CNF = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.fixture
def batch(tmp_path):
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "a-sat.cnf").write_text(SAT_CNF)
    (folder / "b-unsat.cnf").write_text(UNSAT_CNF)
    (folder / "c-maze.txt").write_text(SMALL_MAZE.read_text())
    (folder / "notes.md").write_text("not an instance\n")
    return folder


class _ClaimsUnsat:
    """Test-only faulty solver: UNSAT whatever it is given."""

    def __init__(self, bootstrap_with=None, **_options):
        pass

    def solve(self, assumptions=()):
        return False

    def get_model(self):
        return None

    def delete(self):
        pass


@pytest.fixture
def claims_unsat():
    register_solver("test:claims-unsat", _ClaimsUnsat)
    yield "test:claims-unsat"
    unregister_solver("test:claims-unsat")


def test_batch_that_agrees(batch):
    result = invoke("crosscheck", str(batch), "--proofs", "--jobs", "2")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "3 instances: 2 SAT, 1 UNSAT, 0 unknown, 0 bad input; 0 disagreements, 0 invalid"
    )
    table = {line.split()[0]: line.split() for line in lines[3:6]}
    assert table["dpll:cdcl"][1:4] == ["3", "3", "3"]
    assert table["minisat22"][1:4] == ["3", "3", "3"]
    assert table["maze-search"][1:4] == ["1", "1", "1"]
    assert "proofs of dpll:cdcl: 1 verified" in lines
    assert result.stderr == ""  # not a terminal: no progress


def test_disagreement_exits_1_and_names_the_solver(batch, claims_unsat):
    result = invoke("crosscheck", str(batch / "a-sat.cnf"), "--solvers", f"dpll,{claims_unsat}")
    assert result.exit_code == 1
    assert "FAIL disagree: " in result.stdout
    assert f"  {claims_unsat}: disagree: says UNSAT, but the model of dpll:cdcl" in result.stdout


def test_bad_input_is_reported_and_the_batch_goes_on(batch):
    (batch / "d-bad.cnf").write_text("p cnf 2 1\n1 x 0\n")
    result = invoke("crosscheck", str(batch), "--jobs", "2")
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "d-bad.cnf:2:" in errors[0]
    assert "Traceback" not in result.output
    head = result.stdout.splitlines()[0]
    assert head.startswith("4 instances: 2 SAT, 1 UNSAT, 0 unknown, 1 bad input; 0 disagreements")
    assert head.count("bad input") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/nonexistent/x.cnf"], "error: /nonexistent/x.cnf: No such file or directory"),
        (["{empty}"], "no instances found"),
        (["{sat}", "--maze", "/nonexistent/m.txt"], "error: /nonexistent/m.txt: no such maze file"),
    ],
)
def test_bad_paths_exit_1(tmp_path, args, message):
    (tmp_path / "empty").mkdir()
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    args = [a.format(empty=tmp_path / "empty", sat=tmp_path / "sat.cnf") for a in args]
    result = invoke("crosscheck", *args)
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--solvers", "dpll,nope"], "unknown solver 'nope'"),
        (["--solvers", ","], "name at least one solver"),
        (["--resume"], "--resume needs --json"),
        (["--resume", "--json", "-"], "not stdout"),
        (["--jobs", "0"], "--jobs"),
        (["--timeout", "0"], "--timeout"),
    ],
)
def test_usage_errors_exit_2(tmp_path, args, message):
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), *args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_missing_program_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--solvers", "dpll,bin:kissat")
    assert result.exit_code == 2 and "no 'kissat' program on PATH" in result.stderr


def test_missing_optional_tools_exit_1(tmp_path, monkeypatch):
    (tmp_path / "sat.cnf").write_text(SAT_CNF)

    def no_checker():
        raise CheckerMissing("checking proofs needs dratify: pip install 'dimacs-satkit[test]'")

    def no_pyplot():
        raise PlotUnavailable("--plot needs matplotlib: pip install 'dimacs-satkit[plot]'")

    monkeypatch.setattr(cli, "load_checker", no_checker)
    monkeypatch.setattr(cli, "load_pyplot", no_pyplot)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--proofs")
    assert result.exit_code == 1 and "error: checking proofs needs dratify" in result.stderr
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--plot", str(tmp_path / "p.png"))
    assert result.exit_code == 1 and "error: --plot needs matplotlib" in result.stderr
    result = invoke("fuzz", "--count", "1", "--proofs")
    assert result.exit_code == 1 and "needs dratify" in result.stderr


def test_json_lines_and_resume(batch, tmp_path):
    log = tmp_path / "run.jsonl"
    result = invoke("crosscheck", str(batch), "--json", str(log))
    assert result.exit_code == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 3 and {r["verdict"] for r in records} == {"agree"}
    assert {r["kind"] for r in records} == {"cnf", "maze"}
    # an interrupted batch: one record kept, the next one torn in the middle
    lines = log.read_text().splitlines(keepends=True)
    kept = next(line for line in lines if "a-sat.cnf" in line)
    log.write_text(kept + lines[1][:40])
    result = invoke("crosscheck", str(batch), "--json", str(log), "--resume")
    assert result.exit_code == 0
    assert "resuming: 1 of 3 already recorded" in result.stderr
    assert result.stdout.startswith("3 instances: 2 SAT, 1 UNSAT")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(os.path.basename(r["path"]) for r in records) == [
        "a-sat.cnf", "b-unsat.cnf", "c-maze.txt"
    ]  # fmt: skip
    # everything recorded: nothing runs, the summary still covers the batch
    result = invoke("crosscheck", str(batch), "--json", str(log), "--resume")
    assert "resuming: 3 of 3 already recorded" in result.stderr
    assert result.stdout.startswith("3 instances") and len(log.read_text().splitlines()) == 3


def test_resume_reruns_when_the_solvers_differ(batch, tmp_path):
    log = tmp_path / "run.jsonl"
    invoke("crosscheck", str(batch / "a-sat.cnf"), "--json", str(log), "--solvers", "dpll")
    result = invoke("crosscheck", str(batch / "a-sat.cnf"), "--json", str(log), "--resume")
    assert "resuming: 0 of 1 already recorded" in result.stderr


def test_corrupt_log_is_bad_input(batch, tmp_path):
    log = tmp_path / "run.jsonl"
    log.write_text("not json\n{}\n")
    result = invoke("crosscheck", str(batch), "--json", str(log), "--resume")
    assert result.exit_code == 1 and f"error: {log}:1: not a JSON record" in result.stderr


def test_json_to_stdout_moves_the_summary_to_stderr(batch):
    result = invoke("crosscheck", str(batch / "a-sat.cnf"), "--json", "-")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["verdict"] == "agree" and record["runs"]["minisat22"]["status"] == "SAT"
    assert result.stderr.startswith("1 instances: 1 SAT")


def test_loader_warnings_go_to_stderr_unless_quiet(tmp_path):
    cnf = tmp_path / "short.cnf"
    cnf.write_text("p cnf 3 5\n1 2 0\n-1 0\n")
    result = invoke("crosscheck", str(cnf))
    assert result.exit_code == 0
    assert result.stderr == f"warning: {cnf}:1: header declares 5 clauses but the file has 2\n"
    assert invoke("crosscheck", str(cnf), "--quiet").stderr == ""


def test_stdin(tmp_path):
    result = invoke("crosscheck", "-", input=UNSAT_CNF)
    assert result.exit_code == 0 and result.stdout.startswith("1 instances: 0 SAT, 1 UNSAT")


def test_plot(batch, tmp_path):
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra (matplotlib)")
    png = tmp_path / "plot.png"
    result = invoke("crosscheck", str(batch), "--plot", str(png))
    assert result.exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot: {png}" in result.stderr


def test_maze_cnf_with_its_maze(tmp_path):
    cnf = tmp_path / "small.cnf"
    assert (
        invoke("maze", "encode", str(SMALL_MAZE), "--to", "dimacs", "-o", str(cnf)).exit_code == 0
    )
    result = invoke("crosscheck", str(cnf), "--maze", str(SMALL_MAZE), "--json", "-")
    record = json.loads(result.stdout)
    assert record["kind"] == "maze-cnf" and record["verdict"] == "agree"
    assert record["runs"]["maze-search"]["status"] == "SAT"


def test_progress_bar_only_on_a_terminal():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    progress = cli._Progress(2, quiet=False, stream=stream)
    progress.advance(False)
    progress.advance(True)
    progress.close()
    text = stream.getvalue()
    assert "2/2  1 failed" in text and text.endswith("\r\033[K")
    quiet = Terminal()
    progress = cli._Progress(2, quiet=True, stream=quiet)
    progress.advance(False)
    progress.close()
    assert quiet.getvalue() == ""


# ---------------------------------------------------------------------------- shrink, fuzz


class _UnsatWithFive:
    """Test-only faulty solver: claims UNSAT when the formula mentions variable 5."""

    def __init__(self, bootstrap_with=None, **_options):
        self.clauses = [list(c) for c in bootstrap_with or []]
        self.inner = Solver(bootstrap_with=self.clauses)

    def solve(self, assumptions=()):
        if any(abs(lit) == 5 for clause in self.clauses for lit in clause):
            return False
        return self.inner.solve(assumptions)

    def get_model(self):
        return self.inner.get_model()

    def delete(self):
        self.inner.delete()


@pytest.fixture
def unsat_with_five():
    register_solver("test:unsat-with-5", _UnsatWithFive)
    yield "test:unsat-with-5"
    unregister_solver("test:unsat-with-5")


def test_shrink_command(tmp_path, unsat_with_five):
    source = tmp_path / "big.cnf"
    clauses = [[i, -(i + 1), i + 2] for i in range(1, 40)]
    source.write_text(
        f"p cnf 41 {len(clauses)}\n" + "".join(f"{a} {b} {c} 0\n" for a, b, c in clauses)
    )
    result = invoke("shrink", str(source), "--solvers", f"minisat22,{unsat_with_five}")
    assert result.exit_code == 0, result.output
    target = tmp_path / "big.min.cnf"
    text = target.read_text()
    command = f"satkit crosscheck {target} --solvers minisat22,{unsat_with_five}"
    assert text.startswith(f"c reproduce: {command}\n")
    body = [line for line in text.splitlines() if not line.startswith("c")]
    assert body[0].startswith("p cnf ") and len(body) == 2  # header + one clause
    assert "5" in body[1].replace("-", "").split()
    assert f"reproduce: {command}" in result.stdout
    # the command really reproduces it
    again = invoke("crosscheck", str(target), "--solvers", f"minisat22,{unsat_with_five}")
    assert again.exit_code == 1 and "disagree" in again.stdout


def test_shrink_to_stdout_and_nothing_to_shrink(tmp_path, unsat_with_five):
    source = tmp_path / "s.cnf"
    source.write_text("p cnf 5 2\n1 5 0\n-1 2 0\n")
    result = invoke("shrink", str(source), "-o", "-", "--solvers", f"dpll,{unsat_with_five}")
    assert result.exit_code == 0 and "p cnf" in result.stdout and "reproduce:" in result.stderr
    result = invoke("shrink", str(source))
    assert result.exit_code == 1
    assert "no failure to shrink: every solver agrees and validates" in result.stderr
    result = invoke("shrink", str(tmp_path / "none.cnf"))
    assert result.exit_code == 1 and result.stderr.startswith("error: ")


def test_fuzz_command_small_run(tmp_path):
    out = tmp_path / "fz"
    result = invoke("fuzz", "--count", "12", "--seed", "3", "--max-vars", "30", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "fuzz: 12 instances (cnfuzz 4, ksat 4, maze 4) from seed 3; 0 failures"
    )
    assert not out.exists()  # created only for failures


def test_fuzz_one_family_and_json(tmp_path):
    log = tmp_path / "fuzz.jsonl"
    result = invoke("fuzz", "-n", "4", "--family", "ksat", "--seed", "10", "--json", str(log))
    assert result.exit_code == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(r["seed"] for r in records) == [10, 11, 12, 13]
    assert {r["family"] for r in records} == {"ksat"}


# --------------------------------------------- bin:PROGRAM for any program (competition output)


def _script(folder: Path, name: str, body: str) -> str:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def test_any_program_by_path(tmp_path):
    import shutil

    real = shutil.which("cadical") or shutil.which("picosat")
    if real is None:
        pytest.skip("neither cadical nor picosat is on PATH")
    program = _script(tmp_path, "mysolver", f'exec {real} "$@"')
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    (tmp_path / "unsat.cnf").write_text(UNSAT_CNF)
    result = invoke(
        "crosscheck", str(tmp_path / "sat.cnf"), str(tmp_path / "unsat.cnf"),
        "--solvers", f"dpll,bin:{program}", "--json", "-",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["runs"][f"bin:{program}"]["status"] for r in records] == ["SAT", "UNSAT"]
    assert all(r["runs"][f"bin:{program}"]["outcome"] == "agree" for r in records)


def test_any_program_on_path(tmp_path, monkeypatch):
    _script(tmp_path, "fixed-sat", 'echo "s SATISFIABLE"; echo "v 1 2 3 0"')
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--solvers", "dpll,bin:fixed-sat")
    # 1 2 3 falsifies -3 -2: the model is checked, not believed
    assert result.exit_code == 1
    assert "  bin:fixed-sat: invalid-model: " in result.stdout


def test_lying_program_is_caught(tmp_path):
    liar = _script(tmp_path, "liar", 'echo "s UNSATISFIABLE"; exit 20')
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--solvers", f"dpll,bin:{liar}")
    assert result.exit_code == 1
    assert "FAIL disagree: " in result.stdout
    assert f"  bin:{liar}: disagree: says UNSAT" in result.stdout


def test_program_without_an_s_line_is_a_crash(tmp_path):
    mute = _script(tmp_path, "mute", 'echo "c nothing to say"')
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--solvers", f"dpll,bin:{mute}")
    assert result.exit_code == 1
    assert f"  bin:{mute}: crash: {mute} exited with code 0: printed no 's' line" in result.stdout


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda folder: str(folder / "absent"), "no such file"),
        (lambda folder: str(folder / "sat.cnf"), "is not executable"),
        (lambda folder: "no-such-solver-anywhere", "no 'no-such-solver-anywhere' program on PATH"),
    ],
)
def test_program_that_cannot_run_is_a_usage_error_naming_it(tmp_path, make, message):
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    program = make(tmp_path)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--solvers", f"dpll,bin:{program}")
    assert result.exit_code == 2
    assert f"solver 'bin:{program}' is not available: " in result.stderr
    assert message in result.stderr


def test_help_names_any_program():
    text = " ".join(invoke("crosscheck", "--help").stdout.split())
    assert "bin:PROGRAM / bin:/path/to/solver for any other program" in text
    assert "FILE.png, FILE.svg or FILE.pdf" in text


# ------------------------------------------------------------------- bad input in the summary


def test_bad_input_is_not_an_unknown_answer(tmp_path):
    (tmp_path / "a-sat.cnf").write_text(SAT_CNF)
    (tmp_path / "tok.cnf").write_text("p cnf 2 1\n1 x 0\n")
    result = invoke("crosscheck", str(tmp_path))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith(
        "2 instances: 1 SAT, 0 UNSAT, 0 unknown, 1 bad input; 0 disagreements, 0 invalid, "
        "0 crashes, 0 timeouts; "
    )
    records = [
        json.loads(line)
        for line in invoke("crosscheck", str(tmp_path), "--json", "-").stdout.splitlines()
    ]
    bad = [r for r in records if r["verdict"] == "bad-input"]
    assert len(bad) == 1 and bad[0]["answer"] is None and bad[0]["runs"] == {}


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("huge3.cnf", "p cnf 3 1\n99999999999999999999999 0\n"),
        ("dphuge.txt", "1 99999999999999999999999\n0\nback\n"),
    ],
)
def test_what_the_reader_rejects_is_bad_input_not_a_crash(tmp_path, name, text):
    """A literal too big for any solver: the reader's error, not a crash of each solver."""
    from formats.errors import FormatError

    cnf = tmp_path / name
    cnf.write_text(text)
    try:
        load_instance(str(cnf))
    except FormatError as exc:
        expected = str(exc)
    else:
        pytest.skip(f"the formats reader does not reject the huge literal of {name} yet")
    result = invoke("crosscheck", str(cnf))
    assert result.exit_code == 1
    assert result.stdout.startswith(
        "1 instances: 0 SAT, 0 UNSAT, 0 unknown, 1 bad input; 0 disagreements, 0 invalid, "
        "0 crashes, 0 timeouts; "
    )
    assert result.stderr == f"error: {expected}\n"


# -------------------------------------------------------------------------- plot formats


@pytest.mark.parametrize(("suffix", "magic"), [(".svg", (b"<?xml", b"<svg")), (".pdf", (b"%PDF",)),
                                               (".PNG", (b"\x89PNG",))])  # fmt: skip
def test_plot_format_follows_the_suffix(batch, tmp_path, suffix, magic):
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra (matplotlib)")
    picture = tmp_path / ("plot" + suffix)
    result = invoke("crosscheck", str(batch), "--plot", str(picture))
    assert result.exit_code == 0, result.output
    assert picture.read_bytes().startswith(magic)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.parametrize("target", ["plot.jpg", "plot", "-"])
def test_plot_with_an_unknown_suffix_is_a_usage_error_before_any_run(tmp_path, target, monkeypatch):
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    monkeypatch.chdir(tmp_path)

    def no_run(*_args, **_kwargs):
        raise AssertionError("nothing may run")

    monkeypatch.setattr(cli, "check_paths", no_run)
    result = invoke("crosscheck", "sat.cnf", "--plot", target, "--json", "log.jsonl")
    assert result.exit_code == 2
    assert "Invalid value for '--plot'" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sat.cnf"]


def test_outputs_that_cannot_be_written_are_refused_before_the_work(tmp_path):
    source = tmp_path / "s.cnf"
    source.write_text(SAT_CNF)
    missing = tmp_path / "missing" / "out"
    # without the early check, shrink would first run the solvers and find nothing to shrink
    result = invoke("shrink", str(source), "-o", str(missing))
    assert result.exit_code == 1
    assert result.stderr == f"error: {missing}: output folder does not exist\n"
    result = invoke("crosscheck", str(source), "--plot", f"{missing}.png")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == f"error: {missing}.png: output folder does not exist\n"
