"""crosscheck.batch: the JSON-lines log and resume, and the CI batch — SATLIB uf50 + uuf50
(all 200) against MiniSat with every model and every proof checked."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from crosscheck.batch import (
    BatchOptions,
    ResultLog,
    check_paths,
    instance_key,
    latest_records,
    pending_paths,
    read_log,
    record_key,
    schedule,
)
from crosscheck.check import CheckOptions
from formats.errors import FormatError
from satkit import main

SATLIB = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "satlib"
needs_satlib = pytest.mark.skipif(
    not (SATLIB / "uf50").is_dir(), reason="../shared/bench/satlib is not beside the checkout"
)


def _record(name: str, **fields) -> dict:
    """A small but complete log record (what `record_problem` asks of one)."""
    return {"instance": name, "path": f"/{name}", "solvers": ["x"], "verdict": "agree",
            "answer": "SAT", "runs": {"x": {"status": "SAT", "seconds": 0.5, "outcome": "agree"}},
            **fields}  # fmt: skip


def test_log_appends_whole_lines_and_cuts_a_torn_one(tmp_path):
    path = tmp_path / "log.jsonl"
    log = ResultLog(str(path), resume=False)
    log.append(_record("a"))
    log.close()
    with open(path, "a") as handle:
        handle.write('{"instance": "b", "pa')  # killed mid-write
    assert [r["instance"] for r in read_log(str(path))] == ["a"]
    log = ResultLog(str(path), resume=True)
    assert [r["instance"] for r in log.previous] == ["a"]
    log.append(_record("c"))
    log.close()
    assert [json.loads(line)["instance"] for line in path.read_text().splitlines()] == ["a", "c"]
    assert ResultLog(str(path), resume=False).previous == []  # a fresh batch starts over


def test_a_bad_line_in_the_middle_is_an_error(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(_record("a")) + "\n[1, 2]\n")
    with pytest.raises(FormatError, match=":2: not a JSON object"):
        read_log(str(path))
    assert read_log(str(tmp_path / "missing.jsonl")) == []


def test_pending_and_latest(tmp_path):
    a, b = str(tmp_path / "a.cnf"), str(tmp_path / "b.cnf")
    old = {"path": a, "solvers": ["dpll:cdcl"], "verdict": "timeout"}
    new = {"path": a, "solvers": ["dpll:cdcl"], "verdict": "agree"}
    other = {"path": b, "solvers": ["minisat22"], "verdict": "agree"}
    assert record_key(new) == instance_key(a, ["dpll:cdcl"])
    assert pending_paths([a, b], [old, other], ["dpll:cdcl"]) == [b]
    assert latest_records([old, other, new], [b, a], ["dpll:cdcl"]) == [new]


def test_workers_share_the_free_memory_for_a_maze_s_k(tmp_path, monkeypatch):
    # each of -j N workers grows at once: one maze's K may take 1/N of what is free
    import crosscheck.batch
    import crosscheck.instances

    example = Path(__file__).resolve().parents[1] / "data" / "maze" / "example.txt"
    lines = example.read_text().splitlines(keepends=True)
    lines[2] = "1000\n"  # 57,049 clauses and 12,012 variables: 27.1 MB for dpll:cdcl
    paths = []
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("".join(lines))
        paths.append(str(tmp_path / name))
    for module in (crosscheck.batch, crosscheck.instances):
        monkeypatch.setattr(module, "available_memory", lambda: 40 * 10**6)
    check = CheckOptions(["dpll:cdcl"], timeout=30)
    alone = list(check_paths(paths[:1], BatchOptions(check, jobs=1)))
    assert alone[0]["verdict"] == "agree"
    shared = list(check_paths(paths, BatchOptions(check, jobs=2)))
    assert [record["verdict"] for record in shared] == ["bad-input", "bad-input"]
    assert "which need at least 27.1 MB of memory; 20.0 MB are available" in shared[0]["error"]


def test_check_paths_records_bad_input_and_goes_on(tmp_path):
    good, bad = tmp_path / "good.cnf", tmp_path / "bad.cnf"
    good.write_text("p cnf 1 1\n1 0\n")
    bad.write_text("p cnf 1 1\n1 2 x 0\n")
    options = BatchOptions(CheckOptions(["dpll", "minisat22"], timeout=30), jobs=2)
    records = {Path(r["path"]).name: r for r in check_paths([str(good), str(bad)], options)}
    assert records["good.cnf"]["verdict"] == "agree"
    assert records["bad.cnf"]["verdict"] == "bad-input"
    assert records["bad.cnf"]["error"].startswith(f"{bad}:2: ")


def test_watchdog_grows_with_solvers_and_timeout():
    small = BatchOptions(CheckOptions(["dpll"], timeout=1))
    large = BatchOptions(CheckOptions(["dpll", "minisat22", "cadical153"], timeout=10))
    assert small.watchdog() < large.watchdog()
    assert large.watchdog() >= 10 * 3


@needs_satlib
@pytest.mark.slow
def test_satlib_uf50_and_uuf50_against_minisat_with_models_and_proofs(tmp_path):
    log = tmp_path / "uf50.jsonl"
    result = CliRunner().invoke(
        main,
        ["crosscheck", str(SATLIB / "uf50"), str(SATLIB / "uuf50"), "--solvers",
         "dpll:cdcl,minisat22", "--proofs", "--jobs", "2", "--json", str(log)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "200 instances: 100 SAT, 100 UNSAT, 0 unknown, 0 bad input; by worst run: 0 disagree"
    )
    records = read_log(str(log))
    assert len(records) == 200
    for record in records:
        expected = "UNSAT" if record["family"] == "uuf50" else "SAT"
        assert (record["verdict"], record["answer"]) == ("agree", expected), record["instance"]
        ours = record["runs"]["dpll:cdcl"]
        if expected == "SAT":
            assert ours["detail"] == f"model satisfies all {record['clauses']} clauses"
        else:
            assert ours["proof"] == "verified"
    assert "proofs of dpll:cdcl: 100 verified" in result.stdout


@needs_satlib
@pytest.mark.parametrize("program", ["minisat", "cadical"])
def test_satlib_through_the_external_programs(program):
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not on PATH (CI installs it)")
    files = [str(SATLIB / family / f"{family}-0{i}.cnf") for family in ("uf50", "uuf50")
             for i in range(1, 6)]  # fmt: skip
    result = CliRunner().invoke(
        main, ["crosscheck", *files, "--solvers", f"minisat22,bin:{program}", "--json", "-"]
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 10
    for record in records:
        assert record["runs"][f"bin:{program}"]["outcome"] == "agree"
        assert record["runs"][f"bin:{program}"]["status"] == record["answer"]


def test_parallel_batches_start_with_the_biggest_files(tmp_path):
    sizes = {"a.cnf": 10, "b.cnf": 300, "c.cnf": 20, "d.cnf": 300}
    paths = []
    for name, size in sizes.items():
        (tmp_path / name).write_text("c" * size)
        paths.append(str(tmp_path / name))
    paths += [str(tmp_path / "missing.cnf"), "-"]
    assert schedule(paths, 1) == [0, 1, 2, 3, 4, 5]
    assert schedule(paths, 2) == [1, 3, 2, 0, 4, 5]  # stable among equals


def test_every_record_satkit_writes_passes_the_resume_check(tmp_path):
    from crosscheck.batch import record_problem
    from crosscheck.check import bad_input_record

    maze = Path(__file__).resolve().parents[1] / "data" / "maze" / "small.txt"
    unsat = tmp_path / "unsat.cnf"
    unsat.write_text("p cnf 1 2\n1 0\n-1 0\n")
    options = BatchOptions(CheckOptions(["dpll", "minisat22"], timeout=30, proofs=True))
    records = list(check_paths([str(maze), str(unsat)], options))
    records.append(bad_input_record("x.cnf", None, "x.cnf:1: bad", options.check))
    records.append(bad_input_record("y.cnf", "/y.cnf", "died", options.check, "crash"))
    assert {r["kind"] for r in records} == {"maze", "cnf", None}
    # the fields README lists are in every record, null or empty when unknown (audit 17-C #6)
    always = {"instance", "path", "family", "kind", "variables", "clauses", "notes", "solvers",
              "solver_seed", "timeout", "verdict", "answer", "runs"}  # fmt: skip
    for record in records:
        assert always <= set(record), record
    assert records[-1]["solvers"] == ["dpll:cdcl", "minisat22"] and records[-1]["timeout"] == 30
    for record in records:
        assert record_problem(json.loads(json.dumps(record))) is None, record
    assert record_problem({**records[0], "runs": {"dpll": {"status": "SAT"}}}) == (
        "run 'dpll' lacks 'outcome'"
    )


def test_a_whole_last_line_without_its_newline_is_kept_on_resume(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text(json.dumps(_record("a")))  # hand-edited: no final newline
    log = ResultLog(str(path), resume=True)
    log.append(_record("b"))
    log.close()
    assert [r["instance"] for r in read_log(str(path))] == ["a", "b"]


def test_a_log_record_nested_too_deeply_is_a_format_error(tmp_path):
    # json.loads raises RecursionError, not JSONDecodeError (audit 16-B)
    log = tmp_path / "deep.log"
    log.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(FormatError) as info:
        read_log(str(log))
    assert str(info.value) == f"{log}:1: not a JSON record: nested too deeply"
    log.write_text("[" * 100_000 + "]" * 100_000)  # as a torn last line: cut on resume
    assert read_log(str(log)) == []


def test_real_path_follows_links_and_the_working_folder(tmp_path, monkeypatch):
    # resolved like os.path.realpath, with caches that hold absolute paths only: a relative
    # name means another file once the working folder changes (satkit.main called twice)
    from crosscheck.batch import real_path

    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f.cnf").write_text("p cnf 0 0\n")
    (tmp_path / "link").symlink_to(tmp_path / "a", target_is_directory=True)
    (tmp_path / "a" / "f-link.cnf").symlink_to(tmp_path / "a" / "b" / "f.cnf")
    (tmp_path / "g.cnf").write_text("p cnf 0 0\n")
    # `link/../g.cnf` is beside the link's target, not in tmp_path (review 18c)
    paths = ("a/b/f.cnf", "link/b/f.cnf", "a/f-link.cnf", "link/f-link.cnf", "f.cnf",
             "link/../g.cnf", "link/../b/f.cnf")  # fmt: skip
    for path in paths:
        monkeypatch.chdir(tmp_path)
        assert real_path(path) == os.path.realpath(path), path
        monkeypatch.chdir(tmp_path / "a")
        assert real_path(path) == os.path.realpath(path), path


def test_real_path_sees_a_moved_link_once_forgotten(tmp_path):
    from crosscheck.batch import forget_real_paths, real_path

    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "f.cnf").write_text("p cnf 0 0\n")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "one", target_is_directory=True)
    assert real_path(str(link / "f.cnf")) == str(tmp_path / "one" / "f.cnf")
    link.unlink()
    link.symlink_to(tmp_path / "two", target_is_directory=True)
    forget_real_paths()  # (each crosscheck batch starts so)
    assert real_path(str(link / "f.cnf")) == str(tmp_path / "two" / "f.cnf")
