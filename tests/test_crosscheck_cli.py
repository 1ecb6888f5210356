"""satkit crosscheck / fuzz / shrink end to end: outputs, JSON lines, resume, plots, exit codes."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import sys
import threading
import time
import warnings
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
        "3 instances: 2 SAT, 1 UNSAT, 0 unknown, 0 bad input; by worst run: 0 disagree, 0 invalid"
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
    assert head.startswith(
        "4 instances: 2 SAT, 1 UNSAT, 0 unknown, 1 bad input; by worst run: 0 disagree"
    )
    assert head.count("bad input") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/nonexistent/x.cnf"], "error: /nonexistent/x.cnf: No such file or directory"),
        (["{empty}"], "no instances found"),
        (["{sat}", "--maze", "/nonexistent/m.txt"], "error: /nonexistent/m.txt: no such maze file"),
        (["{sat}", "--maze", "{empty}"], "empty: is a directory, not a file"),
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
        # a log written record by record cannot be one gzip stream: plain text under a .gz
        # name, which zcat refuses, it was
        (["--json", "log.json.gz"], "stays plain text: name it without .gz/.bz2/.xz"),
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


def test_resume_through_a_link_to_the_same_folder_skips_what_is_recorded(batch, tmp_path):
    # a batch dedupes files by their real path; --resume matched the path as spelled, so
    # resuming through a link checked every file again and logged each one twice
    log = tmp_path / "run.jsonl"
    assert invoke("crosscheck", str(batch), "--json", str(log)).exit_code == 0
    link = tmp_path / "link"
    link.symlink_to(batch, target_is_directory=True)
    result = invoke("crosscheck", str(link), "--json", str(log), "--resume")
    assert "resuming: 3 of 3 already recorded" in result.stderr
    assert result.stdout.startswith("3 instances") and len(log.read_text().splitlines()) == 3


def test_resume_reruns_when_the_solvers_differ(batch, tmp_path):
    log = tmp_path / "run.jsonl"
    invoke("crosscheck", str(batch / "a-sat.cnf"), "--json", str(log), "--solvers", "dpll")
    result = invoke("crosscheck", str(batch / "a-sat.cnf"), "--json", str(log), "--resume")
    assert "resuming: 0 of 1 already recorded" in result.stderr


def test_resume_takes_the_same_solvers_in_another_order(batch, tmp_path):
    # the solvers were matched as a list: the other order checked all again (audit 21-C #2)
    log = tmp_path / "run.jsonl"
    path = str(batch / "a-sat.cnf")
    invoke("crosscheck", path, "--json", str(log), "--solvers", "dpll,minisat22")
    result = invoke("crosscheck", path, "--json", str(log), "--resume", "-s", "minisat22,dpll")
    assert "resuming: 1 of 1 already recorded" in result.stderr
    assert result.exit_code == 0 and len(log.read_text().splitlines()) == 1


def test_a_log_written_in_the_folder_checked_is_no_instance_of_it(tmp_path):
    # --json fam/log.cnf: the second run refused the log as an input (audit 21-C #5)
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    log = tmp_path / "log.cnf"
    for resume in ((), ("--resume",)):
        result = invoke("crosscheck", str(tmp_path), "--json", str(log), *resume)
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith("1 instance: 1 SAT")
    assert len(log.read_text().splitlines()) == 1
    # named as an input, it is one: an input is never overwritten
    result = invoke("crosscheck", str(log), "--json", str(log))
    assert result.exit_code == 1 and "refusing to overwrite the input file" in result.stderr


def test_json_and_plot_naming_one_file_is_a_usage_error(tmp_path):
    # the plot overwrote the records, exit 0 (audit 21-C #1)
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    out = tmp_path / "same.svg"
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--json", str(out), "--plot", str(out))
    assert result.exit_code == 2 and "--json and --plot both name" in result.stderr
    assert not out.exists()


def test_resume_reruns_when_the_seed_differs(batch, tmp_path):
    # the seed changes our solver's search: a log must not mix seeds unnoticed
    log = tmp_path / "run.jsonl"
    path = str(batch / "a-sat.cnf")
    invoke("crosscheck", path, "--json", str(log), "--seed", "0")
    again = invoke("crosscheck", path, "--json", str(log), "--resume", "--seed", "5")
    assert "resuming: 0 of 1 already recorded" in again.stderr
    same = invoke("crosscheck", path, "--json", str(log), "--resume", "--seed", "5")
    assert "resuming: 1 of 1 already recorded" in same.stderr
    seeds = [json.loads(line)["solver_seed"] for line in log.read_text().splitlines()]
    assert seeds == [0, 5]


def test_fuzz_records_say_how_to_regenerate_the_instance():
    records = [json.loads(line) for line in invoke(
        "fuzz", "-n", "2", "--seed", "5", "--max-vars", "40", "--solver-seed", "3",
        "--json", "-", "-q",
    ).stdout.splitlines()]  # fmt: skip
    regenerate = [(r["seed"], r["max_vars"], r["solver_seed"]) for r in records]
    assert regenerate == [(5, 40, 3), (6, 40, 3)]


def test_corrupt_log_is_bad_input(batch, tmp_path):
    log = tmp_path / "run.jsonl"
    log.write_text("not json\n{}\n")
    result = invoke("crosscheck", str(batch), "--json", str(log), "--resume")
    assert result.exit_code == 1 and f"error: {log}:1: not a JSON record" in result.stderr


def test_a_log_with_a_number_of_5000_digits_is_one_error_line(batch, tmp_path):
    # int()'s digit limit raises a ValueError that is no JSONDecodeError: it was a
    # traceback (audit 26-C F2)
    if not hasattr(sys, "get_int_max_str_digits"):
        pytest.skip("Python before 3.11 has no digit limit")
    log = tmp_path / "run.jsonl"
    log.write_text('{"instance": "x", "n": ' + "1" * 5000 + "}\n")
    result = invoke("crosscheck", str(batch / "a-sat.cnf"), "--json", str(log), "--resume", "-q")
    assert result.exit_code == 1
    why = "not a JSON record: a number of 5,000 digits (at most 4,300 are read)"
    assert result.stderr == f"error: {log}:1: {why}\n"
    assert log.read_text().startswith('{"instance": "x", "n": 111')  # left as it was


def test_json_to_stdout_moves_the_summary_to_stderr(batch):
    result = invoke("crosscheck", str(batch / "a-sat.cnf"), "--json", "-")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["verdict"] == "agree" and record["runs"]["minisat22"]["status"] == "SAT"
    assert result.stderr.startswith("1 instance: 1 SAT")


def test_loader_warnings_go_to_stderr_unless_quiet(tmp_path):
    cnf = tmp_path / "short.cnf"
    cnf.write_text("p cnf 3 5\n1 2 0\n-1 0\n")
    result = invoke("crosscheck", str(cnf))
    assert result.exit_code == 0
    assert result.stderr == f"warning: {cnf}:1: header declares 5 clauses but the file has 2\n"
    assert invoke("crosscheck", str(cnf), "--quiet").stderr == ""


def test_stdin(tmp_path):
    result = invoke("crosscheck", "-", input=UNSAT_CNF)
    assert result.exit_code == 0 and result.stdout.startswith("1 instance: 0 SAT, 1 UNSAT")


def test_plot(batch, tmp_path):
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra (matplotlib)")
    png = tmp_path / "plot.png"
    result = invoke("crosscheck", str(batch), "--plot", str(png))
    assert result.exit_code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot: {png}" in result.stderr


def test_the_scatter_labels_seconds_plainly_and_sparsely():
    # 2x10^-3 3x10^-3 4x10^-3 ran into each other on an axis of 1.5 decades (audit 21-C #8)
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra (matplotlib)")
    from crosscheck.plot import _seconds_ticks, load_pyplot

    plt = load_pyplot()
    figure, axis = plt.subplots()
    try:
        decades = {"1e-05", "0.0001", "0.001", "0.01", "0.1", "1", "10"}
        for low, high, shown in ((2e-3, 7e-2, {"0.002", "0.005", "0.01", "0.02", "0.05"}),
                                 (1e-5, 60, decades)):  # fmt: skip
            axis.set_xscale("log")
            axis.set_yscale("log")
            axis.set_xlim(low, high)
            axis.set_ylim(low, high)
            _seconds_ticks(axis, low, high)
            figure.canvas.draw()
            labels = {text.get_text() for minor in (False, True)
                      for text in axis.xaxis.get_ticklabels(minor=minor)
                      if text.get_text() and low <= float(text.get_text()) <= high}
            assert labels == shown
    finally:
        plt.close(figure)


def test_the_cactus_labels_seconds_plainly_and_counts_whole_instances(tmp_path):
    # its y axis said 2x10^-3, and its x axis counted 1.5 instances (review 21 #6)
    matplotlib = pytest.importorskip("matplotlib", reason="--plot needs the plot extra")
    from crosscheck.plot import write_plots

    records = [{"timeout": 60, "runs": {"dpll": {"status": "SAT", "seconds": t}}}
               for t in (0.002, 0.004, 0.01, 0.03, 0.05)]  # fmt: skip
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # (labels as text, not paths)
        write_plots(records, tmp_path / "cactus.svg", solvers=["dpll"])
    texts = set(re.findall(r"<text[^>]*>([^<]*)</text>", (tmp_path / "cactus.svg").read_text()))
    assert {"0.002", "0.005", "0.01", "0.02", "0.05"} <= texts
    assert {"1", "2", "5"} <= texts and "1.5" not in texts
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # one instance (review 22 #6)
        write_plots(records[:1], tmp_path / "one.svg", solvers=["dpll"])
    texts = set(re.findall(r"<text[^>]*>([^<]*)</text>", (tmp_path / "one.svg").read_text()))
    assert "1" in texts and not any(re.fullmatch(r"[01]\.[0-9]", text) for text in texts)
    assert "cactus: 1 instance, timeout 60 s" in texts


def test_plot_of_runs_that_all_timed_out_warns_nothing(tmp_path):
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra (matplotlib)")
    from crosscheck.plot import write_plots

    records = [
        {"timeout": 0.5, "runs": {"dpll": {"status": "timeout", "seconds": 0.5},
                                  "minisat22": {"status": "timeout", "seconds": 0.5}}}
    ]  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib's "no artists with labels" reached stderr
        write_plots(records, tmp_path / "cactus.svg", solvers=["dpll"])
        write_plots(records, tmp_path / "both.svg", solvers=["dpll", "minisat22"])  # + scatter
    assert (tmp_path / "cactus.svg").stat().st_size and (tmp_path / "both.svg").stat().st_size


def test_by_family_prints_a_table_by_folder(tmp_path):
    for folder, text in (("sat", SAT_CNF), ("unsat", UNSAT_CNF)):
        (tmp_path / folder).mkdir()
        for n in range(3 if folder == "sat" else 2):
            (tmp_path / folder / f"{n}.cnf").write_text(text)
    result = invoke("crosscheck", str(tmp_path), "-s", "dpll,minisat22", "--by-family")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("family "))
    header = ["family", "instances", "failed", "timeout", "dpll:cdcl", "solved"]
    assert lines[at].split()[:6] == header
    rows = {line.split()[0]: line.split()[1:] for line in lines[at + 1 : at + 3]}
    assert rows["sat"][:4] == ["3", "0", "0", "3"] and rows["unsat"][:4] == ["2", "0", "0", "2"]
    assert rows["sat"][5] == "3" and rows["unsat"][5] == "2"  # minisat22 solved
    without = invoke("crosscheck", str(tmp_path), "-s", "dpll,minisat22")
    assert not any(line.startswith("family ") for line in without.output.splitlines())


def test_folders_named_with_digits_that_are_no_ascii_digits(tmp_path):
    # '²' crashed the folder walk and the summary after the batch; '٣' beside 'abc' too
    for name in ("²", "٣", "abc", "m1²"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "f.cnf").write_text(SAT_CNF)
    result = invoke("crosscheck", str(tmp_path), "-s", "dpll", "--by-family")
    assert result.exit_code == 0 and "4 instances: 4 SAT" in result.output
    at = result.output.index("family ")
    assert [line.split()[0] for line in result.output[at:].splitlines()[1:5]] == [
        "abc", "m1²", "²", "٣"]  # fmt: skip


def test_the_scatter_legend_covers_no_point(tmp_path, monkeypatch):
    # in the lower-right corner it hid the SATLIB instances MiniSat solved more slowly (sweep 25)
    pytest.importorskip("matplotlib", reason="--plot needs the plot extra (matplotlib)")
    from crosscheck import plot

    plt = plot.load_pyplot()
    figures = []
    close = plt.close
    monkeypatch.setattr(plt, "close", lambda figure: (figures.append(figure), close(figure)))
    records = [{"timeout": 20, "runs": {"dpll": {"status": "SAT", "seconds": 10.0 ** -k},
                                        "minisat22": {"status": "SAT", "seconds": 10.0 ** -j}}}
               for k in range(5) for j in range(5)]  # fmt: skip
    plot.write_plots(records, tmp_path / "both.png", solvers=["dpll", "minisat22"])
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = figures[0]
    renderer = FigureCanvasAgg(figure).get_renderer()  # (closed: it lost its canvas)
    scatter = figure.axes[1]
    legend = scatter.get_legend().get_window_extent(renderer)
    assert not legend.overlaps(scatter.get_window_extent(renderer))
    assert figure.bbox.contains(legend.x1, legend.y1) and figure.bbox.contains(legend.x0, legend.y0)


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


def test_shrink_reproduce_command_runs_for_a_file_whose_name_starts_with_a_dash(
    tmp_path, monkeypatch, unsat_with_five
):
    # "reproduce: satkit crosscheck -w.min.cnf …" was "No such option '-w'" (audit 26-B F2)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-w.cnf").write_text("p cnf 5 2\n1 5 0\n-1 2 0\n")
    solvers = f"minisat22,{unsat_with_five}"
    result = invoke("shrink", "-q", "--solvers", solvers, "--", "-w.cnf")
    assert result.exit_code == 0, result.output
    command = f"satkit crosscheck ./-w.min.cnf --solvers {solvers}"
    assert result.stdout.splitlines()[-2:] == ["saved: -w.min.cnf", f"reproduce: {command}"]
    assert (tmp_path / "-w.min.cnf").read_text().startswith(f"c reproduce: {command}\n")
    again = invoke(*command.split()[1:])
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


def test_nothing_to_shrink_says_why(tmp_path, monkeypatch):
    # the maze search or path check is not part of a plain CNF: that is no agreement
    liar = _script(tmp_path, "say-unsat", 'echo "s UNSATISFIABLE"; exit 20')
    maze = Path(__file__).resolve().parents[1] / "data" / "maze" / "example.txt"
    failing = invoke("crosscheck", str(maze), "--solvers", f"bin:{liar}")
    assert failing.exit_code == 1 and "the maze search found a valid walk" in failing.stdout
    result = invoke("shrink", str(maze), "--solvers", f"bin:{liar}", "-o", str(tmp_path / "o"))
    assert result.exit_code == 1 and not (tmp_path / "o").exists()
    assert result.stderr == (
        f"error: {maze}: no failure to shrink: bin:{liar} fails only against the maze (its "
        "search or the path check), which a CNF cut down clause by clause cannot keep\n"
    )
    # a timeout is not a failure, and not an agreement either; a plain CNF is not checked
    # a second time to say so (the timeout would be waited out twice)
    import crosscheck.cli

    def no_second_check(*_args):
        raise AssertionError("a plain CNF checked again")

    monkeypatch.setattr(crosscheck.cli, "check_instance", no_second_check)
    hang = _script(tmp_path, "hang", "exec sleep 30")
    source = tmp_path / "s.cnf"
    source.write_text("p cnf 5 2\n1 5 0\n-1 2 0\n")
    result = invoke("shrink", str(source), "--solvers", f"dpll,bin:{hang}", "--timeout", "0.5")
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {source}: no failure to shrink: bin:{hang} timed out (a timeout is not a "
        "failure: --fail-on-timeout shrinks it as one; a longer --timeout may let it answer)\n"
    )


def _hangs_on_one(folder: Path) -> str:
    """A program that hangs when a clause holds literal 1 (killed at the deadline) and
    otherwise answers right (by trying every assignment: for tiny formulas)."""
    path = folder / "hangs-on-1"
    path.write_text(
        f"#!{sys.executable}\n"
        "import itertools, sys, time\n"
        "lines = open(sys.argv[1]).read().splitlines()\n"
        "clauses = [[int(x) for x in l.split()[:-1]] for l in lines if l and l[0] not in 'cp']\n"
        "if any(1 in clause for clause in clauses):\n"
        "    time.sleep(3600)\n"
        "names = sorted({abs(lit) for clause in clauses for lit in clause})\n"
        "for values in itertools.product((1, -1), repeat=len(names)):\n"
        "    model = {v * n for v, n in zip(values, names)}\n"
        "    if all(any(lit in model for lit in clause) for clause in clauses):\n"
        "        print('s SATISFIABLE')\n"
        "        print('v', *sorted(model, key=abs), 0)\n"
        "        sys.exit(10)\n"
        "print('s UNSATISFIABLE')\n"
        "sys.exit(20)\n"
    )
    path.chmod(0o755)
    return str(path)


def test_shrink_fail_on_timeout_shrinks_a_hang_to_what_makes_it_hang(tmp_path):
    # a hang could not be shrunk, and no --timeout could help (audit 27-C #2)
    hang = _hangs_on_one(tmp_path)
    source = tmp_path / "h.cnf"
    source.write_text("p cnf 3 3\n2 -3 0\n1 -3 0\n3 -2 0\n")  # (each hang: 0.5 s)
    args = ["shrink", str(source), "-q", "-s", f"dpll,bin:{hang}", "--timeout", "0.5"]
    result = invoke(*args, "--fail-on-timeout")
    assert result.exit_code == 0, result.output
    target = tmp_path / "h.min.cnf"
    command = shlex.join(
        ["satkit", "crosscheck", str(target), "--solvers", f"dpll:cdcl,bin:{hang}",
         "--timeout", "0.5", "--fail-on-timeout"]
    )  # fmt: skip
    lines = result.stdout.splitlines()
    checks = re.fullmatch(
        rf"shrunk {re.escape(str(source))}: 3 -> 1 clauses over 1 variables in (\d+) checks "
        rf"\(bin:{re.escape(hang)} timeout\)",
        lines[0],
    )
    assert checks and lines[1:] == [f"saved: {target}", f"reproduce: {command}"]
    assert target.read_text().splitlines() == [
        f"c reproduce: {command}",
        f"c shrunk from {source}: 3 -> 1 clauses in {checks[1]} checks (bin:{hang} timeout)",
        "p cnf 1 1",
        "1 0",
    ]
    again = invoke(*shlex.split(command)[1:])  # the command shows the hang again
    assert again.exit_code == 1 and f"timeout: {target} (bin:{hang})" in again.stdout
    assert "--fail-on-timeout" in invoke("shrink", "--help").stdout


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
        "2 instances: 1 SAT, 0 UNSAT, 0 unknown, 1 bad input; by worst run: 0 disagree, 0 invalid, "
        "0 crash, 0 timeout; "
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
        "1 instance: 0 SAT, 0 UNSAT, 0 unknown, 1 bad input; by worst run: 0 disagree, 0 invalid, "
        "0 crash, 0 timeout; "
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


# ---------------------------------------------------- audit 12: reading, options, logs, outputs


@pytest.mark.parametrize(
    "text",
    ["1 2\n0\n-1\n0\n-2\n0\n", "1 2\n-1 0\n0\n", "1\n2 0\n-1 0\n-2 0\n"],
    ids=["zero-lines", "empty-clause", "wrapped"],
)
def test_a_headerless_cnf_whose_clauses_wrap_lines_is_dimacs(tmp_path, text):
    """Its first line has no final 0, like the DP format, but a .cnf is DIMACS: crosscheck
    checks the formula `satkit solve` and MiniSat refute (it once said SAT, '0 disagreements')."""
    cnf = tmp_path / "wraps.cnf"
    cnf.write_text(text)
    result = invoke("crosscheck", str(cnf), "--json", "-", "--quiet")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert (record["kind"], record["answer"], record["verdict"]) == ("cnf", "UNSAT", "agree")
    assert invoke("solve", str(cnf), "--quiet").exit_code == 20  # the same formula


def test_a_cnf_file_is_never_read_as_a_maze(tmp_path):
    cnf = tmp_path / "words.cnf"
    cnf.write_text("START A\n1 2 0\n")
    result = invoke("crosscheck", str(cnf))
    assert result.exit_code == 1
    [error] = result.stderr.splitlines()
    assert error.startswith(f"error: {cnf}:1: ") and "START" not in error.split(":", 3)[-1][:6]
    assert "maze" not in error


@pytest.mark.parametrize("command", ["crosscheck", "shrink", "fuzz"])
@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "99999999", "1000001", "0", "x"])
def test_timeouts_that_are_no_time_limit_are_usage_errors(tmp_path, monkeypatch, command, value):
    """inf, nan and huge values once passed and ended in false crashes, tracebacks, or
    JSON with a bare Infinity."""
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    monkeypatch.setattr(cli, "check_paths", _nothing_may_run)
    monkeypatch.setattr(cli, "run_fuzz", _nothing_may_run)
    monkeypatch.setattr(cli, "shrink_instance", _nothing_may_run)
    args = ["--count", "1"] if command == "fuzz" else [str(tmp_path / "sat.cnf")]
    result = invoke(command, *args, "--timeout", value)
    assert result.exit_code == 2
    assert "Invalid value for '--timeout'" in result.stderr


def test_the_largest_timeout_runs_and_the_json_is_strict(tmp_path):
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "-s", "dpll", "--timeout",
                    "1000000", "--json", "-")  # fmt: skip
    assert result.exit_code == 0

    def no_constants(name):
        raise AssertionError(f"bare {name} in the JSON")

    record = json.loads(result.stdout, parse_constant=no_constants)
    assert record["timeout"] == 1_000_000


def test_records_are_never_written_with_nan_or_infinity():
    from crosscheck.batch import record_line

    assert record_line({"seconds": 1.5}) == '{"seconds": 1.5}\n'
    for bad in (float("nan"), float("inf")):
        with pytest.raises(ValueError):
            record_line({"seconds": bad})


def _nothing_may_run(*_args, **_kwargs):
    raise AssertionError("nothing may run before the options and outputs are checked")


def test_json_log_naming_an_input_is_refused_before_any_work(tmp_path, monkeypatch):
    mine = tmp_path / "mine.cnf"
    mine.write_text(SAT_CNF)
    monkeypatch.setattr(cli, "check_paths", _nothing_may_run)
    result = invoke("crosscheck", str(mine), "--json", str(mine))
    assert result.exit_code == 1
    assert result.stderr == f"error: {mine}: refusing to overwrite the input file\n"
    assert mine.read_text() == SAT_CNF
    # also an instance found in a folder, and the maze given with --maze
    (tmp_path / "m.txt").write_text(SMALL_MAZE.read_text())
    for args in ([str(tmp_path), "--json", str(mine)],
                 [str(mine), "--maze", str(tmp_path / "m.txt"), "--json", str(tmp_path / "m.txt")],
                 [str(mine), "--json", str(mine), "--resume"]):  # fmt: skip
        result = invoke("crosscheck", *args)
        assert result.exit_code == 1 and "refusing to overwrite the input file" in result.stderr
    assert mine.read_text() == SAT_CNF
    assert (tmp_path / "m.txt").read_text() == SMALL_MAZE.read_text()


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("{tmp}", "is a directory, not a file"),
        ("{tmp}/no/log.jsonl", "output folder does not exist"),
    ],
)
def test_json_log_that_cannot_be_written_is_refused_at_once(tmp_path, monkeypatch, target, message):
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    monkeypatch.setattr(cli, "check_paths", _nothing_may_run)
    monkeypatch.setattr(cli, "run_fuzz", _nothing_may_run)
    target = target.format(tmp=tmp_path)
    for args in (["crosscheck", str(tmp_path / "sat.cnf")], ["fuzz", "--count", "1"]):
        result = invoke(*args, "--json", target)
        assert result.exit_code == 1
        assert result.stderr == f"error: {target}: {message}\n"


def test_json_log_is_replaced_unless_resumed_as_the_help_says(tmp_path):
    a, b = tmp_path / "a.cnf", tmp_path / "b.cnf"
    a.write_text(SAT_CNF)
    b.write_text(UNSAT_CNF)
    log = tmp_path / "log.jsonl"
    for _ in range(2):
        assert invoke("crosscheck", str(a), "--json", str(log), "-q").exit_code == 0
    assert len(log.read_text().splitlines()) == 1  # replaced, not appended
    assert invoke("crosscheck", str(b), "--json", str(log), "-q", "--resume").exit_code == 0
    names = [os.path.basename(json.loads(line)["path"]) for line in log.read_text().splitlines()]
    assert names == ["a.cnf", "b.cnf"]  # continued
    text = " ".join(invoke("crosscheck", "--help").stdout.split())
    assert "FILE is replaced, unless --resume continues it" in text
    assert "Append" not in text
    text = " ".join(invoke("fuzz", "--help").stdout.split())
    assert "replacing it" in text and "Append" not in text


def _undecodable(folder: Path, stem: bytes, suffix: bytes = b".cnf") -> Path:
    """A file whose name is not UTF-8 (Python shows its bytes as lone surrogates)."""
    name = os.fsdecode(stem + suffix)
    try:
        (folder / name).touch()
    except (OSError, UnicodeEncodeError):
        pytest.skip("the file system does not take names that are not UTF-8")
    return folder / name


def test_file_names_that_are_not_utf8(tmp_path):
    folder = tmp_path / "weird"
    folder.mkdir()
    _undecodable(folder, b"\xff").write_text(SAT_CNF)
    _undecodable(folder, b"bad\xfe").write_text("p cnf 2 1\n1 x 0\n")
    log = tmp_path / "w.jsonl"
    result = invoke("crosscheck", str(folder), "--json", str(log))  # a strict UTF-8 stdout
    assert result.exit_code == 1  # the bad input, reported like any other
    assert "Traceback" not in result.output
    assert "FAIL bad-input: " in result.stdout
    [error] = result.stderr.splitlines()
    assert error.startswith("error: ") and error.endswith(":2: expected a literal or 0, found 'x'")
    data = log.read_bytes()
    assert data.isascii()
    records = [json.loads(line) for line in data.decode("utf-8").splitlines()]
    assert sorted(os.path.basename(r["instance"]) for r in records) == sorted(
        os.listdir(folder)
    )  # the escapes give the very names back
    result = invoke("crosscheck", str(folder), "--json", "-")
    assert result.stdout.encode("utf-8").isascii()
    assert len([json.loads(line) for line in result.stdout.splitlines()]) == 2


def test_shrinking_a_file_whose_name_is_not_utf8(tmp_path, unsat_with_five):
    source = _undecodable(tmp_path, b"s\xff")
    source.write_text("p cnf 5 3\n1 5 0\n-1 2 0\n2 3 0\n")
    result = invoke("shrink", str(source), "--solvers", f"minisat22,{unsat_with_five}")
    assert result.exit_code == 0, result.output
    [target] = [p for p in tmp_path.iterdir() if p.name.endswith(".min.cnf")]
    comments = [line for line in target.read_text("utf-8").splitlines() if line.startswith("c")]
    assert "\\udcff" in comments[0] and "\\udcff" in comments[1]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"runs": {"dpll:cdcl": {"status": "SAT"}}}, "run 'dpll:cdcl' lacks 'outcome'"),
        ({"verdict": None}, "'verdict' is null, not one of 'disagree', "),
        ({"verdict": "fine"}, "'verdict' is the string \"fine\", not one of"),
        ({"runs": []}, "'runs' is a list, not an object"),
        ({"runs": {"x": 3}}, "run 'x' is the number 3, not an object"),
        (
            {"runs": {"x": {"status": "SAT", "outcome": "agree", "seconds": "1"}}},
            "run 'x': 'seconds' is the string \"1\", not a number of seconds",
        ),
        (
            {"runs": {"x": {"status": "SAT", "outcome": "agree", "seconds": 1, "proof": 7}}},
            "run 'x': 'proof' is the number 7, not a string",
        ),
        (
            {"runs": {"x": {"status": "sat", "outcome": "agree", "seconds": 1}}},
            "run 'x': 'status' is the string \"sat\", not one of 'SAT', 'UNSAT', 'timeout'",
        ),
        ({"solvers": "dpll"}, "'solvers' is the string \"dpll\", not a list of strings"),
        ({"solvers": ["dpll", 3]}, "'solvers' is a list, not a list of strings"),
        ({"instance": 5}, "'instance' is the number 5, not a string"),
        ({"answer": "YES"}, "'answer' is the string \"YES\", not one of 'SAT', 'UNSAT' or null"),
        ({"timeout": float("nan")}, "'timeout' is the number nan, not a number of seconds"),
    ],
)
def test_resume_from_a_malformed_record_is_one_error_line(tmp_path, record, message):
    sat = tmp_path / "sat.cnf"
    sat.write_text(SAT_CNF)
    base = {
        "instance": str(sat), "path": str(sat), "solvers": ["dpll:cdcl", "minisat22"],
        "verdict": "agree", "answer": "SAT",
        "runs": {"dpll:cdcl": {"status": "SAT", "seconds": 0.1, "outcome": "agree"}},
    }  # fmt: skip
    log = tmp_path / "old.jsonl"
    good = json.dumps({**base, "path": str(tmp_path / "other.cnf")})
    log.write_text(good + "\n" + json.dumps({**base, **record}) + "\n")
    result = invoke("crosscheck", str(sat), "--json", str(log), "--resume")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {log}:2: {message}")
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""
    # the well-formed record resumes
    log.write_text(json.dumps(base) + "\n")
    result = invoke("crosscheck", str(sat), "--json", str(log), "--resume")
    assert result.exit_code == 0 and "resuming: 1 of 1 already recorded" in result.stderr


def test_a_log_that_is_not_utf8_is_one_error_line(tmp_path):
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    log = tmp_path / "old.jsonl"
    log.write_bytes(b'{"instance": "\xff"}\n')
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--json", str(log), "--resume")
    assert result.exit_code == 1
    assert result.stderr == f"error: {log}:1: not UTF-8 text (byte 0xff)\n"


def test_the_maze_of_a_maze_cnf_from_stdin(tmp_path):
    cnf = tmp_path / "small.cnf"
    encoded = invoke("maze", "encode", str(SMALL_MAZE), "--to", "dimacs", "-o", str(cnf))
    assert encoded.exit_code == 0
    (tmp_path / "elsewhere").mkdir()
    moved = tmp_path / "elsewhere" / "small.cnf"
    cnf.rename(moved)  # no maze beside it: only stdin can give it
    result = invoke("crosscheck", str(moved), "--maze", "-", "--json", "-",
                    input=SMALL_MAZE.read_text())  # fmt: skip
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["kind"] == "maze-cnf" and record["runs"]["maze-search"]["outcome"] == "agree"
    assert "the maze of this CNF is unknown" not in result.stderr
    result = invoke("crosscheck", "-", "--maze", "-", input=moved.read_text())
    assert result.exit_code == 2 and "cannot both read stdin" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_the_maze_of_a_maze_cnf_from_a_named_pipe(tmp_path):
    # `--maze <(cat maze.txt)` or a named pipe: "no such maze file" (audit 17-B #6)
    import threading

    cnf = tmp_path / "elsewhere" / "small.cnf"
    cnf.parent.mkdir()
    encoded = invoke("maze", "encode", str(SMALL_MAZE), "--to", "dimacs", "-o", str(cnf))
    assert encoded.exit_code == 0
    fifo = tmp_path / "maze.pipe"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(SMALL_MAZE.read_bytes()))
    writer.start()
    result = invoke("crosscheck", str(cnf), "--maze", str(fifo), "--json", "-")
    writer.join()
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["runs"]["maze-search"]["outcome"] == "agree"
    result = invoke("crosscheck", str(cnf), "--maze", str(tmp_path / "none.txt"))
    assert result.exit_code == 1 and result.stderr.endswith("none.txt: no such maze file\n")


def test_a_dp_input_named_txt_is_not_tried_as_its_own_maze(tmp_path):
    clauses = tmp_path / "small-clauses.txt"
    assert invoke("maze", "encode", str(SMALL_MAZE), "-o", str(clauses)).exit_code == 0
    result = invoke("crosscheck", str(clauses))
    assert result.exit_code == 0, result.output
    assert "not used" not in result.stderr
    assert result.stderr == (
        f"warning: {clauses}: the maze of this CNF is unknown: paths decoded, not validated\n"
    )


# -------------------------------------------------------- audit 12: fuzz and shrink options


def test_fuzz_out_is_checked_before_the_run(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "run_fuzz", _nothing_may_run)
    a_file = tmp_path / "out-is-a-file"
    a_file.write_text("")
    for out, message in ((a_file, "is not a folder"),
                         (a_file / "sub", "cannot be created: Not a directory")):  # fmt: skip
        result = invoke("fuzz", "--count", "2", "--out", str(out))
        assert result.exit_code == 1
        assert result.stderr == f"error: {out}: {message}\n"


def test_fuzz_out_made_for_the_run_is_gone_when_nothing_failed(tmp_path):
    out = tmp_path / "new" / "deeper"
    result = invoke("fuzz", "--count", "2", "--max-vars", "20", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_fuzz_max_vars_is_a_bound_or_a_usage_error(tmp_path):
    result = invoke("fuzz", "-n", "30", "--seed", "7", "--max-vars", "3", "--family", "ksat",
                    "--family", "cnfuzz", "--json", "-")  # fmt: skip
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 30 and max(r["variables"] for r in records) <= 3
    for args in (["--max-vars", "5"], ["--max-vars", "3", "--family", "maze"]):
        result = invoke("fuzz", "-n", "1", *args)
        assert result.exit_code == 2
        assert "Invalid value for '--max-vars'" in result.stderr
        assert "maze instances, which need at least 6" in result.stderr


def test_a_negative_fuzz_seed_is_a_usage_error(monkeypatch):
    # random.Random(-3) is random.Random(3): seed -3 repeated seed 3's formulas (audit 19-B #4)
    monkeypatch.setattr(cli, "run_fuzz", _nothing_may_run)
    result = invoke("fuzz", "--seed", "-3", "--count", "7")
    assert result.exit_code == 2
    assert "Invalid value for '--seed': -3 is not in the range x>=0." in result.stderr


def test_fuzz_counts_a_repeated_family_once(tmp_path):
    result = invoke("fuzz", "-n", "4", "--family", "cnfuzz", "--family", "cnfuzz",
                    "--max-vars", "20")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("fuzz: 4 instances (cnfuzz 4) from seed 0;")


def _counting_checks(monkeypatch):
    import crosscheck.shrink as shrink

    calls = []
    real = shrink.check_instance

    def counted(instance, options):
        calls.append(len(instance.clauses))
        return real(instance, options)

    monkeypatch.setattr(shrink, "check_instance", counted)
    return calls


@pytest.mark.parametrize("budget", [1, 2, 3, 5, 8, 40])
def test_shrink_spends_at_most_max_checks_and_says_how_many(
    tmp_path, monkeypatch, unsat_with_five, budget
):
    source = tmp_path / "big.cnf"
    clauses = [[i, -(i + 1), i + 2] for i in range(1, 20)]
    source.write_text(
        f"p cnf 21 {len(clauses)}\n" + "".join(f"{a} {b} {c} 0\n" for a, b, c in clauses)
    )
    calls = _counting_checks(monkeypatch)
    result = invoke("shrink", str(source), "--solvers", f"minisat22,{unsat_with_five}",
                    "--max-checks", str(budget))  # fmt: skip
    assert result.exit_code == 0, result.output
    spent = len(calls) - 2  # the shrunk formula's two re-checks come on top of the budget
    assert 1 <= spent <= budget
    word = "check" if spent == 1 else "checks"
    assert f" in {spent} {word} (" in result.stdout
    shrunk = (tmp_path / "big.min.cnf").read_text()
    assert f" clauses in {spent} {word} (" in shrunk
    # a budget that ran out says so: the result may not be minimal (audit 18-F #6)
    ran_out = spent == budget
    assert (f"--max-checks {budget} ran out" in result.stdout) == ran_out
    assert ("stopped by --max-checks" in shrunk) == ran_out
    if not ran_out:  # a budget of exactly what the shrink needed did not run out (review 18b)
        needed = spent
        exact = str(tmp_path / "exact.cnf")
        again = invoke("shrink", str(source), "--solvers", f"minisat22,{unsat_with_five}",
                       "--max-checks", str(needed), "-o", exact)  # fmt: skip
        assert f" in {needed} {word} (" in again.stdout and "ran out" not in again.stdout


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_shrink_shows_progress_on_a_terminal_unless_quiet(tmp_path, monkeypatch, unsat_with_five):
    source = tmp_path / "s.cnf"
    source.write_text("p cnf 5 3\n1 5 0\n-1 2 0\n2 3 0\n")
    monkeypatch.setattr(cli, "_is_terminal", lambda stream: True)
    result = invoke("shrink", str(source), "--solvers", f"minisat22,{unsat_with_five}")
    assert result.exit_code == 0, result.output
    assert f"\rshrinking {source}: 1 check, 3 -> 3 clauses" in result.stderr
    assert result.stderr.endswith("\r\033[K") and "\r" not in result.stdout
    result = invoke("shrink", str(source), "--solvers", f"minisat22,{unsat_with_five}", "-q")
    assert result.exit_code == 0 and result.stderr == ""


def test_progress_shows_any_status_and_throttles():
    stream = _Terminal()
    progress = cli._Progress(0, quiet=False, stream=stream)
    progress.show("shrinking x: 1 check")
    progress.show("shrinking x: 2 checks")  # within 0.1 s of the first: not drawn
    progress.close()
    text = stream.getvalue()
    assert text.startswith("\rshrinking x: 1 check  ") and "2 checks" not in text
    assert text.endswith("\r\033[K")
    silent = _Terminal()
    progress = cli._Progress(0, quiet=False, stream=silent)
    progress.close()  # nothing drawn: nothing to clear
    assert silent.getvalue() == ""


def test_json_record_fields_are_documented_in_the_readme(tmp_path):
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## Cross-checking") : readme.index("## Fuzzing")]
    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    record = json.loads(invoke("crosscheck", str(tmp_path / "sat.cnf"), "--json", "-").stdout)
    fields = set(record) | {"error", "notes", "seed", "encoding", "max_vars"}
    fields |= {key for run in record["runs"].values() for key in run} | {"proof", "path"}
    missing = sorted(name for name in fields if f"`{name}`" not in section)
    assert missing == []


def test_fuzz_refuses_a_compressed_log_name_and_an_empty_folder_name(tmp_path):
    log = invoke("fuzz", "--count", "1", "--json", str(tmp_path / "f.json.xz"))
    assert log.exit_code == 2 and "stays plain text" in log.stderr
    assert "--resume" not in log.stderr  # fuzz has none
    assert not (tmp_path / "f.json.xz").exists()
    empty = invoke("fuzz", "--count", "1", "--out", "")
    assert empty.exit_code == 1 and empty.stderr == "error: '': an empty name is no folder\n"


def test_a_full_disk_is_one_error_line_naming_the_file(tmp_path, monkeypatch):
    # the --json log on a full disk was blamed on <stdout>; a full TMPDIR for the export to
    # the solver programs was each instance's crash (audit 17-B #5)
    import crosscheck.check
    from formats.errors import EnvironmentFailure

    (tmp_path / "sat.cnf").write_text(SAT_CNF)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--json", "/dev/full")
    assert result.exit_code == 1 and result.stderr == "error: /dev/full: No space left on device\n"

    def full(*_args):
        raise EnvironmentFailure("cannot write the DIMACS export: No space left on device")

    monkeypatch.setattr(crosscheck.check, "write_clauses", full)
    program = _hangs_on_one(tmp_path)  # (any program: it is never run; not minisat, which
    # a machine that runs the tests need not have: audit 27-D #1)
    result = invoke("crosscheck", str(tmp_path / "sat.cnf"), "--solvers", f"dpll,bin:{program}")
    assert result.exit_code == 1
    assert result.stderr.endswith(
        "error: cannot write the DIMACS export: No space left on device\n")


@pytest.mark.parametrize("failed_first", [False, True])
def test_a_stopped_batch_exits_130_unless_something_failed(tmp_path, monkeypatch, failed_first):
    # a nightly `crosscheck … || alarm` took an interrupted batch (exit 1) for a failure
    # (audit 18-F #5); a failure found before the stop still says 1
    real = cli.check_paths

    def stopped(paths, options, **kwargs):
        for record in real(paths, options, **kwargs):
            if failed_first:
                record = {**record, "verdict": "disagree"}
            yield record
            raise KeyboardInterrupt

    monkeypatch.setattr(cli, "check_paths", stopped)
    cnf = tmp_path / "a.cnf"
    cnf.write_text("p cnf 1 1\n1 0\n")
    other = tmp_path / "b.cnf"
    other.write_text("p cnf 1 1\n-1 0\n")
    result = invoke("crosscheck", str(cnf), str(other), "-s", "dpll")
    assert "interrupted after 1 of 2 instances" in result.stderr
    assert result.exit_code == (1 if failed_first else 130)

    def fuzz_stopped(options):
        yield from ()
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run_fuzz", fuzz_stopped)
    result = invoke("fuzz", "-n", "5", "-s", "dpll")
    assert "interrupted after 0 of 5 instances" in result.stderr and result.exit_code == 130


def test_the_progress_bar_catches_up_and_its_clock_runs_while_workers_are_busy(monkeypatch):
    # a redraw skipped (ten a second at most) was never made: "22/41 … 0.1 s" stayed on the
    # screen for the 6 s the last instance took (audit 18-F #4)
    monkeypatch.setattr(cli, "_is_terminal", lambda stream: True)
    stream = _Terminal()
    progress = cli._Progress(3, False, stream)
    progress.TICK = 0.05
    progress.advance(False)
    progress.advance(False)  # within 0.1 s of the first: not drawn now
    assert "2/3" not in stream.getvalue()
    deadline = time.monotonic() + 30  # (a generous wait, not a speed limit)
    while "2/3" not in stream.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "] 2/3  0 failed" in stream.getvalue()
    progress.close()  # the ticker stops drawing once the line is cleared
    while progress.ticker is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert progress.ticker is None
    cleared = stream.getvalue()
    time.sleep(0.2)
    assert stream.getvalue() == cleared


class _SlowTerminal:
    """A terminal whose writes take a while, each under its own lock, as stderr's buffer
    takes its lock for a write: a fork in the middle of one leaves the child that lock held
    by a thread it does not have."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.text: list[str] = []
        self.ticker_writing = threading.Event()

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> None:
        with self.lock:
            if threading.current_thread() is not threading.main_thread():
                self.ticker_writing.set()
            time.sleep(0.2)
            self.text.append(text)

    def flush(self) -> None:
        pass


def test_a_fork_while_the_progress_ticker_writes_leaves_the_child_free_to_write(monkeypatch):
    # crosscheck/shrink/fuzz fork workers while the ticker redraws the progress line; a child
    # forked mid-write blocked on its first write to stderr: a false timeout (audit 26-C F5)
    from crosscheck.isolate import CAN_FORK, call_isolated
    from crosscheck.pool import run_pool

    if not CAN_FORK:
        pytest.skip("no fork on this platform")
    stream = _SlowTerminal()
    progress = cli._Progress(0, quiet=False, stream=stream)
    monkeypatch.setattr(progress, "TICK", 0.01)
    progress.show("shrinking x: 1 check")  # drawn, and the ticker started
    try:
        for _ in range(3):
            stream.ticker_writing.clear()
            assert stream.ticker_writing.wait(30)  # (a generous wait, not a speed limit)
            outcome = call_isolated(lambda: stream.write("child") or "wrote", timeout=10)
            assert (outcome.kind, outcome.value) == ("ok", "wrote"), outcome
        # a pool's worker, forked by multiprocessing, the same
        stream.ticker_writing.clear()
        assert stream.ticker_writing.wait(30)
        work = lambda _index: stream.write("worker") or "wrote"  # noqa: E731
        lost = lambda _index, kind, reason: f"{kind}: {reason}"  # noqa: E731
        assert list(run_pool(1, work, lost, watchdog=10)) == [(0, "wrote")]
    finally:
        progress.close()
    free: list[bool] = []  # nothing left held after the forks (asked from another thread)

    def take() -> None:
        free.append(cli._DRAWING.acquire(timeout=30))
        cli._DRAWING.release()

    other = threading.Thread(target=take)
    other.start()
    other.join()
    assert free == [True]


def test_json_naming_an_existing_cnf_is_refused_and_the_file_kept(tmp_path):
    # `satkit crosscheck --json g/*.cnf` made the first instance the log, checked the rest,
    # and exited 0; `fuzz --json x.cnf` overwrote x.cnf too (audit 20-B #1)
    first, second = tmp_path / "a.cnf", tmp_path / "b.cnf"
    first.write_text(SAT_CNF)
    second.write_text(UNSAT_CNF)
    runner = CliRunner()
    result = runner.invoke(main, ["crosscheck", "--json", str(first), str(second)])
    assert result.exit_code == 2
    assert f"--json {first} is an existing CNF file, not overwritten" in result.output
    result = runner.invoke(main, ["fuzz", "--count", "1", "--json", str(first)])
    assert result.exit_code == 2 and "is an existing CNF file" in result.output
    assert first.read_text() == SAT_CNF
    new_log = tmp_path / "log.cnf"  # a name of that kind that is no file yet: a log, as asked
    result = runner.invoke(main, ["crosscheck", "-q", "--json", str(new_log), str(second)])
    assert result.exit_code == 0 and json.loads(new_log.read_text())["answer"] == "UNSAT"
    result = runner.invoke(main, ["crosscheck", "-q", "--json", str(new_log), str(second)])
    assert result.exit_code == 0  # an earlier log of that name is replaced
    # a maze is an instance too: `--json data/maze/*.txt` made the first maze the log
    mazes = [tmp_path / "m1.txt", tmp_path / "m2.txt"]
    for maze in mazes:
        maze.write_text(SMALL_MAZE.read_text())
    result = runner.invoke(main, ["crosscheck", "--json", *map(str, mazes)])
    assert result.exit_code == 2 and f"--json {mazes[0]} is an existing instance file" in (
        result.output
    )
    assert mazes[0].read_text() == SMALL_MAZE.read_text()


def test_resume_with_a_longer_timeout_checks_the_timed_out_instances_again(tmp_path):
    # --resume skipped every recorded instance, so a batch's timeouts could not be settled
    # by resuming with a longer --timeout (audit 20-B)
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "a.cnf").write_text(SAT_CNF)
    (folder / "b.cnf").write_text(UNSAT_CNF)
    log = tmp_path / "run.jsonl"
    assert invoke("crosscheck", str(folder), "--json", str(log), "-q").exit_code == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    for record in records:  # as a run with --timeout 2 whose minisat22 ran out of time
        if record["instance"].endswith("b.cnf"):
            record["timeout"] = 2
            record["runs"]["minisat22"].update(status="timeout", outcome="timeout")
    log.write_text("".join(json.dumps(record) + "\n" for record in records))
    result = invoke("crosscheck", str(folder), "--json", str(log), "--resume", "--timeout", "2")
    assert "resuming: 2 of 2 already recorded\n" in result.stderr  # no longer: not again
    assert re.search(r"minisat22 +2 +1 +1 +0 +0 +0 +1 ", result.stdout)  # its timeout stands
    result = invoke("crosscheck", str(folder), "--json", str(log), "--resume", "--timeout", "9")
    assert result.exit_code == 0
    assert (
        "resuming: 1 of 2 already recorded; 1 timed out under a shorter --timeout: checked again"
        in result.stderr
    )
    assert result.stdout.startswith("2 instances: 1 SAT, 1 UNSAT")
    assert re.search(r"minisat22 +2 +2 +2 +0 +0 +0 +0 ", result.stdout)  # settled
    lines = log.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[-1])["timeout"] == 9


def test_fail_on_timeout_makes_a_hanging_solver_fail_the_batch(tmp_path):
    # a timeout fails nothing, so a regression that hangs on every instance passed CI with
    # exit 0 (audit 20-B); --fail-on-timeout is the switch for that use
    cnf = tmp_path / "a.cnf"
    cnf.write_text(SAT_CNF)
    hangs = tmp_path / "hangs"
    hangs.write_text("#!/bin/sh\nexec sleep 30\n")
    hangs.chmod(0o755)
    args = ["crosscheck", str(cnf), "-s", f"dpll,bin:{hangs}", "--timeout", "0.5", "-q"]
    assert invoke(*args).exit_code == 0
    result = invoke(*args, "--fail-on-timeout")
    assert result.exit_code == 1
    assert result.stderr.endswith("1 instance timed out: --fail-on-timeout\n")
    fuzz = ["fuzz", "-n", "1", "-s", f"dpll,bin:{hangs}", "--timeout", "0.5", "-q",
            "--out", str(tmp_path / "saved")]  # fmt: skip
    assert invoke(*fuzz).exit_code == 0
    result = invoke(*fuzz, "--fail-on-timeout")
    assert result.exit_code == 1 and "1 instance timed out: --fail-on-timeout" in result.stderr


def test_strict_reads_dimacs_as_solve_does(tmp_path):
    # crosscheck --strict answered SAT on a DP input that `solve --strict` refuses for its
    # missing header (audit 27-D #2)
    source = tmp_path / "in.txt"
    source.write_text("1 2\n-1\n0\nback matter\n")
    result = invoke("crosscheck", str(source), "--strict", "--solvers", "dpll")
    assert result.exit_code == 1
    assert f"{source}:1: no 'p cnf VARIABLES CLAUSES' header before the clauses" in result.stderr
    assert invoke("crosscheck", str(source), "--solvers", "dpll").exit_code == 0
