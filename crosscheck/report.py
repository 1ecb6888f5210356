"""The end-of-batch summary: counts per verdict, a table per solver (and per family), and what
failed, as text.

Per solver: runs, solved (answered SAT or UNSAT), agree, disagree, invalid
(model, proof or path), crash, timeout, total and median solve time (over
solved runs), and the median ratio of its time to MiniSat's over the
instances both solved (MiniSat = ``minisat22`` from PySAT, else
``bin:minisat``). Times are solve-call times for in-process and PySAT
solvers and whole-process times for external programs. Then per solver its
UNSAT proofs (verified, rejected, unchecked), and how many instances' UNSAT
rests on one solver's unchecked answer. Per family (``--by-family``; a family is
the folder a file sits in): instances, failed and timed-out instances, and each
solver's solved runs and median solve time.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crosscheck.check import FAILURES, LONE_UNSAT, why_no_proof
from crosscheck.instances import natural_key

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
class FamilyRow:
    """One line of the per-family table (``--by-family``): a family's instances, how many
    failed or timed out, and each solver's solved runs and their solve times."""

    family: str
    instances: int = 0
    failed: int = 0
    timed_out: int = 0
    times: dict[str, list[float]] = field(default_factory=dict)  # by solver, solved runs


@dataclass
class Summary:
    """What a batch found.

    ``answers`` splits the instances that were read into SAT, UNSAT and
    ``unknown``; those that could not be read are ``verdicts["bad-input"]``,
    so ``instances`` = SAT + UNSAT + unknown + bad input. ``failed`` holds the failed
    records whole; ``timed_out``, ``unchecked`` (instance, solver, why: proofs whose check
    did not finish, not those never given) and ``unconfirmed`` (instance, solver: an UNSAT
    answer that alone settled its instance, no proof verified) only what the notices print.
    """

    instances: int
    answers: Counter[str]
    verdicts: Counter[str]
    rows: list[SolverRow]
    reference: str | None
    failed: list[dict[str, Any]]
    timed_out: list[dict[str, Any]]
    unchecked: list[tuple[str, str, str]] = field(default_factory=list)
    unconfirmed: list[tuple[str, str]] = field(default_factory=list)
    families: list[FamilyRow] = field(default_factory=list)  # in natural order of name

    @property
    def ok(self) -> bool:
        """True when every instance agreed and validated (timeouts allowed)."""
        return not self.failed


class Tally:
    """A `Summary` built one record at a time, keeping of each only what the summary
    prints: a batch of millions of instances (a night of ``fuzz``) grew by 4 KB an
    instance while every record was kept to the end.

    ``solvers`` fixes the row order and which MiniSat the ratios divide by (runs of
    other solvers get rows as they appear). ``position``, when given, orders the failed
    and timed-out instances (records come in the order they finish); else they keep the
    order they came in.
    """

    def __init__(
        self,
        solvers: Sequence[str] = (),
        position: Callable[[dict[str, Any]], int] | None = None,
    ) -> None:
        self.position = position
        self.rows = {name: SolverRow(name) for name in dict.fromkeys(solvers)}
        self.reference = next((r for r in REFERENCES if r in self.rows), None)
        self.instances = 0
        self.answers: Counter[str] = Counter()
        self.verdicts: Counter[str] = Counter()
        self.failed: list[tuple[int, dict[str, Any]]] = []  # (position, record)
        self.timed_out: list[tuple[int, dict[str, Any]]] = []
        self.unchecked: list[tuple[int, tuple[str, str, str]]] = []
        self.unconfirmed: list[tuple[int, tuple[str, str]]] = []
        self.families: dict[str, FamilyRow] = {}

    def add(self, record: dict[str, Any]) -> None:
        """Count one instance's record."""
        self.instances += 1
        at = self.instances if self.position is None else self.position(record)
        verdict = record["verdict"]
        self.verdicts[verdict] += 1
        if verdict != "bad-input":  # unread: counted as bad input, not as unknown
            self.answers[record.get("answer") or "unknown"] += 1
        runs = record.get("runs", {})
        family_name = record.get("family") or ""
        family = self.families.get(family_name)
        if family is None:
            family = self.families[family_name] = FamilyRow(family_name)
        family.instances += 1
        family.failed += verdict in FAILED_VERDICTS
        family.timed_out += verdict == "timeout"
        ref = runs.get(self.reference) if self.reference else None
        ref_time = ref["seconds"] if ref and ref["status"] in ("SAT", "UNSAT") else None
        for name, run in runs.items():
            row = self.rows.get(name)
            if row is None:
                row = self.rows[name] = SolverRow(name)
            row.runs += 1
            row.outcomes[run["outcome"]] += 1
            proof = run.get("proof")
            if proof:
                row.proofs[proof.split(":")[0]] += 1
                # a solver that gives no proof is counted; a check that did not finish is listed
                if proof.startswith("unchecked") and proof != why_no_proof(name):
                    self.unchecked.append((at, (record["instance"], name, proof)))
            if run.get("detail") == LONE_UNSAT and record.get("answer") == "UNSAT":
                self.unconfirmed.append((at, (record["instance"], name)))
            if run["status"] in ("SAT", "UNSAT"):
                row.solved += 1
                row.times.append(run["seconds"])
                family.times.setdefault(name, []).append(run["seconds"])
                if ref_time and ref_time > 0:
                    row.ratios.append(run["seconds"] / ref_time)
        if verdict in FAILED_VERDICTS:
            self.failed.append((at, record))
        elif verdict == "timeout":
            slow = {name: {"outcome": run["outcome"]} for name, run in runs.items()}
            kept = {"instance": record["instance"], "runs": slow}
            if record.get("error"):
                kept["error"] = record["error"]
            self.timed_out.append((at, kept))

    def summary(self) -> Summary:
        """The summary of the records added so far."""
        def ordered(items: list[tuple[int, Any]]) -> list[Any]:
            return [item for _at, item in sorted(items, key=lambda pair: pair[0])]

        return Summary(
            self.instances, self.answers, self.verdicts, list(self.rows.values()),
            self.reference, ordered(self.failed), ordered(self.timed_out),
            ordered(self.unchecked), ordered(self.unconfirmed),
            [self.families[name] for name in sorted(self.families, key=natural_key)],
        )  # fmt: skip


def summarize(records: Iterable[dict[str, Any]], solvers: Sequence[str] = ()) -> Summary:
    """Count verdicts and build the per-solver rows (``solvers`` fixes the row order)."""
    records = list(records)
    names = [*solvers, *(name for record in records for name in record.get("runs", {}))]
    tally = Tally(names)
    for record in records:
        tally.add(record)
    return tally.summary()


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 100 else f"{value:.1f}"


def _ratio(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}x" if value < 100 else f"{value:.0f}x"


def summary_lines(summary: Summary, elapsed: float | None = None) -> list[str]:
    """The summary as text lines: totals, the per-solver table, proof counts, and the
    instances whose UNSAT rests on one solver's unchecked answer."""
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
    lines = [head, "", *_aligned(table)]
    for row in summary.rows:
        if row.proofs:
            counts = ", ".join(f"{n} {kind}" for kind, n in sorted(row.proofs.items()))
            lines.append(f"proofs of {row.solver}: {counts}")
    if summary.unconfirmed:
        count = len(summary.unconfirmed)
        lines.append(
            f"unconfirmed: the UNSAT of {count} instance{'' if count == 1 else 's'} rests on "
            "one solver alone, with no verified proof"
        )
    return lines


def family_lines(summary: Summary) -> list[str]:
    """The per-family table (``--by-family``): each family's instances, failed and timed-out
    instances, and each solver's solved runs and median solve time over them (to a tenth of
    a millisecond below 1 s). A family is the name of the folder a file sits in (folders of
    one name in different trees share a row; stdin is ``-``)."""
    names = [row.solver for row in summary.rows]
    table = [["family", "instances", "failed", "timeout"]]
    for name in names:
        table[0] += [f"{name} solved", "median s"]
    for family in summary.families:
        cells = [family.family or "-", str(family.instances), str(family.failed),
                 str(family.timed_out)]  # fmt: skip
        for name in names:
            times = family.times.get(name, [])
            median = statistics.median(times) if times else None
            # to a tenth of a millisecond: whole families of small files take under one
            fine = median is not None and median < 1
            cells += [str(len(times)), f"{median:.4f}" if fine else _seconds(median)]
        table.append(cells)
    return _aligned(table)


def _aligned(table: list[list[str]]) -> list[str]:
    """Rows of cells as lines: the first column left-aligned, the others right-aligned."""
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = []
    for line in table:
        cells = [line[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(line[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
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
    """What did not fail but was not fully checked: timeouts, proofs whose check did not
    finish, UNSAT answers that one solver gave alone (at most ``limit`` of each)."""
    lines: list[str] = []
    shown = summary.timed_out[:limit]
    for record in shown:
        slow = [name for name, run in record.get("runs", {}).items() if run["outcome"] == "timeout"]
        why = ", ".join(slow) or record.get("error", "")
        lines.append(f"timeout: {record['instance']} ({why})")
    if len(summary.timed_out) > len(shown):
        lines.append(f"… and {len(summary.timed_out) - len(shown)} more timeouts")
    unchecked = summary.unchecked
    for instance, name, why in unchecked[:limit]:
        lines.append(f"proof {why}: {instance} ({name})")
    if len(unchecked) > limit:
        lines.append(f"… and {len(unchecked) - limit} more unchecked proofs")
    for instance, name in summary.unconfirmed[:limit]:
        lines.append(f"unconfirmed UNSAT: {instance} ({name} alone)")
    if len(summary.unconfirmed) > limit:
        lines.append(f"… and {len(summary.unconfirmed) - limit} more unconfirmed UNSAT answers")
    return lines
