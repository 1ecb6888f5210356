"""The end-of-batch summary: counts per verdict, a table per solver, and what failed, as text.

Per solver: runs, solved (answered SAT or UNSAT), agree, disagree, invalid
(model, proof or path), crash, timeout, total and median solve time (over
solved runs), and the median ratio of its time to MiniSat's over the
instances both solved (MiniSat = ``minisat22`` from PySAT, else
``bin:minisat``). Times are solve-call times for in-process and PySAT
solvers and whole-process times for external programs.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crosscheck.check import FAILURES

REFERENCES = ("minisat22", "bin:minisat")
"""The solvers whose time the ratio column divides by, first present wins."""

FAILED_VERDICTS = (*FAILURES, "bad-input")
"""Verdicts that make a batch exit 1."""

_INVALID = ("invalid-model", "invalid-proof", "invalid-path")


@dataclass
class SolverRow:
    """One line of the per-solver table."""

    solver: str
    runs: int = 0
    solved: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    times: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    proofs: Counter[str] = field(default_factory=Counter)

    @property
    def invalid(self) -> int:
        """Invalid models, proofs and paths together."""
        return sum(self.outcomes[name] for name in _INVALID)

    @property
    def total(self) -> float:
        """Total solve time over solved runs (seconds)."""
        return sum(self.times)

    @property
    def median(self) -> float | None:
        """Median solve time over solved runs (seconds)."""
        return statistics.median(self.times) if self.times else None

    @property
    def median_ratio(self) -> float | None:
        """Median of (this solver's time / MiniSat's) over instances both solved."""
        return statistics.median(self.ratios) if self.ratios else None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "solver": self.solver,
            "runs": self.runs,
            "solved": self.solved,
            "agree": self.outcomes["agree"],
            "disagree": self.outcomes["disagree"],
            "invalid": self.invalid,
            "crash": self.outcomes["crash"],
            "timeout": self.outcomes["timeout"],
            "total_seconds": round(self.total, 6),
            "median_seconds": self.median,
            "median_ratio_to_minisat": self.median_ratio,
            "proofs": dict(self.proofs),
        }


@dataclass
class Summary:
    """What a batch found.

    ``answers`` splits the instances that were read into SAT, UNSAT and
    ``unknown``; those that could not be read are ``verdicts["bad-input"]``,
    so ``instances`` = SAT + UNSAT + unknown + bad input.
    """

    instances: int
    answers: Counter[str]
    verdicts: Counter[str]
    rows: list[SolverRow]
    reference: str | None
    failed: list[dict[str, Any]]
    timed_out: list[dict[str, Any]]
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every instance agreed and validated (timeouts allowed)."""
        return not self.failed


def summarize(records: Iterable[dict[str, Any]], solvers: Sequence[str] = ()) -> Summary:
    """Count verdicts and build the per-solver rows (``solvers`` fixes the row order)."""
    records = list(records)
    names: list[str] = list(dict.fromkeys(solvers))
    for record in records:
        for name in record.get("runs", {}):
            if name not in names:
                names.append(name)
    rows = {name: SolverRow(name) for name in names}
    reference = next((r for r in REFERENCES if r in rows), None)
    for record in records:
        runs = record.get("runs", {})
        ref = runs.get(reference) if reference else None
        ref_time = ref["seconds"] if ref and ref["status"] in ("SAT", "UNSAT") else None
        for name, run in runs.items():
            row = rows[name]
            row.runs += 1
            row.outcomes[run["outcome"]] += 1
            if run.get("proof"):
                row.proofs[run["proof"].split(":")[0]] += 1
            if run["status"] in ("SAT", "UNSAT"):
                row.solved += 1
                row.times.append(run["seconds"])
                if ref_time and ref_time > 0:
                    row.ratios.append(run["seconds"] / ref_time)
    verdicts = Counter(record["verdict"] for record in records)
    answers = Counter(
        record.get("answer") or "unknown"
        for record in records
        if record["verdict"] != "bad-input"  # unread: counted as bad input, not as unknown
    )
    failed = [record for record in records if record["verdict"] in FAILED_VERDICTS]
    timed_out = [record for record in records if record["verdict"] == "timeout"]
    return Summary(
        len(records), answers, verdicts, list(rows.values()), reference, failed, timed_out, records
    )


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 100 else f"{value:.1f}"


def _ratio(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}x" if value < 100 else f"{value:.0f}x"


def summary_lines(summary: Summary, elapsed: float | None = None) -> list[str]:
    """The summary as text lines: totals, the per-solver table, proof counts."""
    v, a = summary.verdicts, summary.answers
    # instances, each counted once by its worst run (the table below counts runs)
    head = (
        f"{summary.instances} instance{'' if summary.instances == 1 else 's'}: "
        f"{a['SAT']} SAT, {a['UNSAT']} UNSAT, {a['unknown']} unknown, {v['bad-input']} bad input; "
        f"by worst run: {v['disagree']} disagree, {sum(v[name] for name in _INVALID)} invalid, "
        f"{v['crash']} crash, {v['timeout']} timeout"
    )
    if elapsed is not None:
        head += f"; {elapsed:.1f} s"
    table = [
        ["solver", "runs", "solved", "agree", "disagree", "invalid", "crash", "timeout",
         "total s", "median s"],
    ]  # fmt: skip
    if summary.reference:  # (no MiniSat among the solvers: no column to divide by)
        table[0].append(f"x {summary.reference}")
    for row in summary.rows:
        cells = [
            row.solver,
            str(row.runs),
            str(row.solved),
            str(row.outcomes["agree"]),
            str(row.outcomes["disagree"]),
            str(row.invalid),
            str(row.outcomes["crash"]),
            str(row.outcomes["timeout"]),
            _seconds(row.total),
            _seconds(row.median),
        ]
        if summary.reference:
            cells.append(_ratio(row.median_ratio))
        table.append(cells)
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = [head, ""]
    for line in table:
        cells = [line[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(line[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    for row in summary.rows:
        if row.proofs:
            counts = ", ".join(f"{n} {kind}" for kind, n in sorted(row.proofs.items()))
            lines.append(f"proofs of {row.solver}: {counts}")
    return lines


def failure_lines(summary: Summary, limit_timeouts: int = 10) -> list[str]:
    """One block per failed instance (which solver, what went wrong), then the timeouts and
    the proofs that could not be checked in time (at most ``limit_timeouts`` of each)."""
    lines: list[str] = []
    for record in summary.failed:
        lines.append(f"FAIL {record['verdict']}: {record['instance']}")
        if record.get("error"):
            lines.append(f"  {record['error']}")
        for name, run in record.get("runs", {}).items():
            if run["outcome"] != "agree" and run["outcome"] != "timeout":
                lines.append(f"  {name}: {run['outcome']}: {run.get('detail', '')}".rstrip(": "))
    return lines + notice_lines(summary, limit_timeouts)


def notice_lines(summary: Summary, limit: int = 10) -> list[str]:
    """What did not fail but was not fully checked: timeouts, then proofs left unchecked
    (at most ``limit`` of each)."""
    lines: list[str] = []
    shown = summary.timed_out[:limit]
    for record in shown:
        slow = [name for name, run in record.get("runs", {}).items() if run["outcome"] == "timeout"]
        why = ", ".join(slow) or record.get("error", "")
        lines.append(f"timeout: {record['instance']} ({why})")
    if len(summary.timed_out) > len(shown):
        lines.append(f"… and {len(summary.timed_out) - len(shown)} more timeouts")
    unchecked = [
        (record["instance"], name, run["proof"])
        for record in summary.records
        for name, run in record.get("runs", {}).items()
        if run.get("proof", "").startswith("unchecked")
    ]
    for instance, name, why in unchecked[:limit]:
        lines.append(f"proof {why}: {instance} ({name})")
    if len(unchecked) > limit:
        lines.append(f"… and {len(unchecked) - limit} more unchecked proofs")
    return lines
