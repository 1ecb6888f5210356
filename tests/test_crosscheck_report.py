"""crosscheck.report: the counts, medians and ratios of the summary are the right ones."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from crosscheck.check import LONE_UNSAT
from crosscheck.instances import natural_key
from crosscheck.report import Tally, failure_lines, family_lines, summarize, summary_lines


def run(status, seconds, outcome="agree", **extra):
    return {"status": status, "seconds": seconds, "outcome": outcome, **extra}


RECORDS = [
    {"instance": "a", "verdict": "agree", "answer": "SAT",
     "runs": {"dpll:cdcl": run("SAT", 0.4), "minisat22": run("SAT", 0.1)}},
    {"instance": "b", "verdict": "agree", "answer": "UNSAT",
     "runs": {"dpll:cdcl": run("UNSAT", 3.0, proof="verified"), "minisat22": run("UNSAT", 0.5)}},
    {"instance": "c", "verdict": "timeout", "answer": "SAT", "timeout": 9,
     "runs": {"dpll:cdcl": run("timeout", 9.0, "timeout"), "minisat22": run("SAT", 0.2)}},
    {"instance": "d", "verdict": "disagree", "answer": "SAT",
     "runs": {"dpll:cdcl": run("UNSAT", 1.0, "disagree", detail="says UNSAT", proof="rejected"),
              "minisat22": run("SAT", 0.25)}},
    {"instance": "e", "verdict": "bad-input", "answer": None, "error": "e:3: expected a literal",
     "runs": {}},
    {"instance": "f", "verdict": "agree", "answer": "UNSAT",
     "runs": {"dpll:cdcl": run("UNSAT", 2.0, proof="unchecked: the check took more than 9 s"),
              "minisat22": run("UNSAT", 1.0)}},
]  # fmt: skip


def test_counts_medians_and_ratios():
    summary = summarize(RECORDS, ["dpll:cdcl", "minisat22"])
    assert summary.instances == 6 and not summary.ok
    assert summary.answers == {"SAT": 3, "UNSAT": 2}  # the unreadable "e" is no answer
    assert summary.verdicts["bad-input"] == 1
    ours, minisat = summary.rows
    assert (ours.runs, ours.solved) == (5, 4)
    assert (ours.outcomes["agree"], ours.outcomes["disagree"]) == (3, 1)
    assert ours.outcomes["timeout"] == 1 and ours.invalid == 0
    assert ours.total == pytest.approx(6.4) and ours.median == pytest.approx(1.5)
    assert ours.median_ratio == pytest.approx(4.0)  # ratios 4, 6, 4, 2
    assert minisat.median_ratio == pytest.approx(1.0) and minisat.solved == 5
    assert ours.proofs == {"verified": 1, "rejected": 1, "unchecked": 1}
    assert [r["instance"] for r in summary.failed] == ["d", "e"]
    assert [r["instance"] for r in summary.timed_out] == ["c"]


def test_natural_order_takes_only_ascii_digit_runs_as_numbers():
    # '²'.isdigit() and '٣'.isdigit() hold: int('²') raised, and int('٣') put a number where
    # other names hold text; either folder name crashed the walk and the summary (review 25)
    names = ["flat100", "flat30", "²", "m1²", "٣", "abc", "a10", "a2", "", "10"]
    assert sorted(names, key=natural_key) == [
        "", "10", "a2", "a10", "abc", "flat30", "flat100", "m1²", "²", "٣"]  # fmt: skip
    records = [{"instance": n, "family": n, "verdict": "agree", "answer": "SAT", "runs": {}}
               for n in names]  # fmt: skip
    assert [row.family for row in summarize(records).families] == sorted(names, key=natural_key)


def test_by_family_counts_each_folder_apart_in_natural_order():
    families = ["flat100", "flat30", "flat100", "", "flat100", "flat30"]
    records = [dict(record, family=name) for record, name in zip(RECORDS, families, strict=True)]
    summary = summarize(records, ["dpll:cdcl", "minisat22"])
    assert [row.family for row in summary.families] == ["", "flat30", "flat100"]
    lines = family_lines(summary)
    assert lines[0].split() == ["family", "instances", "failed", "timeout", "dpll:cdcl",
                                "solved", "median", "s", "minisat22", "solved", "median", "s"]
    # flat100 holds a (0.4 / 0.1), c (timeout / 0.2) and e (bad input, no runs);
    # flat30 holds b (3.0 / 0.5) and f (2.0 / 1.0); "-" holds the disagreeing d
    assert [line.split() for line in lines[1:]] == [
        ["-", "1", "1", "0", "1", "1.000", "1", "0.2500"],
        ["flat30", "2", "0", "0", "2", "2.500", "2", "0.7500"],
        ["flat100", "3", "1", "1", "1", "0.4000", "2", "0.1500"],
    ]  # fmt: skip


def test_text():
    summary = summarize(RECORDS, ["dpll:cdcl", "minisat22"])
    lines = summary_lines(summary, elapsed=12.34)
    assert lines[0] == (
        "6 instances: 3 SAT, 2 UNSAT, 0 unknown, 1 bad input; by worst run: 1 disagree, 0 invalid, "
        "0 crash, 1 timeout; 12.3 s"
    )
    header = lines[2].split()
    assert header[:3] == ["solver", "runs", "solved"] and header[-2:] == ["x", "minisat22"]
    row = "dpll:cdcl 5 4 3 1 0 0 1 6.400 1.500 4.00x"
    assert lines[3].split() == row.split()
    assert "proofs of dpll:cdcl: 1 rejected, 1 unchecked, 1 verified" in lines
    failures = failure_lines(summary)
    assert failures == [
        "FAIL disagree: d",
        "  dpll:cdcl: disagree: says UNSAT",
        "FAIL bad-input: e",
        "  e:3: expected a literal",
        "timeout: c (dpll:cdcl)",
        "proof unchecked: the check took more than 9 s: f (dpll:cdcl)",
    ]


def test_without_minisat_there_is_no_ratio():
    records = [{"instance": "a", "verdict": "agree", "answer": "SAT",
                "runs": {"dpll:cdcl": run("SAT", 0.4)}}]  # fmt: skip
    summary = summarize(records)
    assert summary.reference is None and summary.rows[0].median_ratio is None
    assert summary.ok
    lines = summary_lines(summary)  # no column of dashes (audit 17-D #8)
    assert lines[2].split()[-2:] == ["median", "s"] and lines[3].split()[-1] == "0.400"


def test_external_minisat_is_the_reference_when_pysat_is_absent():
    runs = {"dpll:cdcl": run("SAT", 0.4), "bin:minisat": run("SAT", 0.2)}
    records = [{"instance": "a", "verdict": "agree", "answer": "SAT", "runs": runs}]
    summary = summarize(records)
    assert summary.reference == "bin:minisat"
    assert summary.rows[0].median_ratio == pytest.approx(2.0)


def test_a_tally_in_any_order_gives_the_summary_in_file_order():
    # records come in the order they finish; the listed failures follow the files
    position = {record["instance"]: i for i, record in enumerate(RECORDS)}
    tally = Tally(["dpll:cdcl", "minisat22"], lambda record: position[record["instance"]])
    for record in reversed(RECORDS):
        tally.add(record)
    assert failure_lines(tally.summary()) == failure_lines(
        summarize(RECORDS, ["dpll:cdcl", "minisat22"])
    )
    assert summary_lines(tally.summary()) == summary_lines(
        summarize(RECORDS, ["dpll:cdcl", "minisat22"])
    )


def test_a_tally_keeps_no_record_that_did_not_fail():
    # every record was kept to the end: a fuzz run grew by 4 KB an instance (audit 18-F #1)
    record = RECORDS[0]
    tally = Tally(["dpll:cdcl", "minisat22"])
    tally.add(json.loads(json.dumps(record)))  # (the first rows and counters)
    tracemalloc.start()
    try:
        for _ in range(5000):
            tally.add(json.loads(json.dumps(record)))  # a fresh record, as from a worker
        grown = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert grown / 5000 < 300  # solve times and ratios, which the medians need (was 4 KB)
    assert tally.summary().instances == 5001


def test_unsat_answers_nothing_checked_are_counted(tmp_path):
    # audit 20-B #2: a solver that gives no proof is counted, not listed; a lone UNSAT is both
    records = [
        {"instance": "g", "verdict": "agree", "answer": "UNSAT",
         "runs": {"dpll:cdcl": run("UNSAT", 1.0, proof="verified"),
                  "minisat22": run("UNSAT", 0.5, proof="unchecked: minisat22 gives no proof")}},
        {"instance": "h", "verdict": "timeout", "answer": "UNSAT",
         "runs": {"dpll:cdcl": run("timeout", 9.0, "timeout"),
                  "minisat22": run("UNSAT", 0.5, detail=LONE_UNSAT,
                                   proof="unchecked: minisat22 gives no proof")}},
    ]  # fmt: skip
    summary = summarize(records, ["dpll:cdcl", "minisat22"])
    assert summary.unchecked == [] and summary.unconfirmed == [("h", "minisat22")]
    lines = summary_lines(summary)
    assert lines[-2:] == [
        "proofs of minisat22: 2 unchecked",
        "unconfirmed: the UNSAT of 1 instance rests on one solver alone, with no verified proof",
    ]
    assert failure_lines(summary) == [
        "timeout: h (dpll:cdcl)",
        "unconfirmed UNSAT: h (minisat22 alone)",
    ]


def test_through_the_cli_a_lone_unsat_is_unconfirmed_and_minisat_unchecked(tmp_path):
    from click.testing import CliRunner

    from satkit import main

    unsat = tmp_path / "php.cnf"  # pigeonhole 3 into 2
    unsat.write_text("p cnf 6 9\n1 2 0\n3 4 0\n5 6 0\n-1 -3 0\n-1 -5 0\n-3 -5 0\n"
                     "-2 -4 0\n-2 -6 0\n-4 -6 0\n")  # fmt: skip
    says = tmp_path / "saysunsat"
    says.write_text("#!/bin/sh\necho 's UNSATISFIABLE'\nexit 20\n")
    hangs = tmp_path / "hang"
    hangs.write_text("#!/bin/sh\nexec sleep 1000\n")
    for script in (says, hangs):
        script.chmod(0o755)
    args = ["crosscheck", str(unsat), "--proofs", "--timeout", "1",
            "--solvers", f"bin:{says},bin:{hangs}"]  # fmt: skip
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output  # a timeout fails nothing
    lines = result.output.splitlines()
    assert f"proofs of bin:{says}: 1 unchecked" in lines
    assert (
        "unconfirmed: the UNSAT of 1 instance rests on one solver alone, with no verified proof"
        in lines
    )
    assert f"unconfirmed UNSAT: {unsat} (bin:{says} alone)" in lines
    args = ["crosscheck", str(unsat), "--proofs", "--solvers", "minisat22,cadical153",
            "--json", "-"]  # fmt: skip
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0
    record = json.loads(result.stdout.splitlines()[0])
    assert record["runs"]["minisat22"]["proof"] == "unchecked: minisat22 gives no proof"
    assert record["runs"]["cadical153"]["proof"] == "verified"
