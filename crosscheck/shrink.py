"""A cnfdd-style delta debugger: cut a failing CNF down while the failure still reproduces.

Passes, as in Biere's cnfdd: remove clauses in blocks of half the formula,
then a quarter, … down to single clauses (at each width also trying each
block alone, as Zeller's ddmin does); then remove single literals from
each clause; repeat both while they make progress; finally renumber the
variables that are left to 1..n. A candidate is kept only when cross-checking
it (same solvers, same options) still shows one of the original failures —
the same solver with the same outcome (``disagree``, ``invalid-model``, …; for a
``crash``, the same kind of crash: signal, exit code and reason, see `crash_kind`, so
that a solver with two bugs is not shrunk from one to the other).
When renumbering loses the failure (a bug tied to one variable number), the
numbers stay and only the variables above the largest one used are dropped.
Every cross-check counts against the budget (``max_checks``), the first one
and the renumbering ones included. When the budget runs out, or Ctrl-C stops the
shrinking, the smallest failing formula found so far is the result.
Timeouts are no failures, so shrinking does not drift towards them, unless the caller
makes them failures (``timeouts``: ``--fail-on-timeout``): then a timeout is a failure to
keep, a hang (``timeout``) told apart from an UNKNOWN answer (``timeout (answered
UNKNOWN)``) as crashes are by kind, and the formula behind a hang shrinks like any other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from crosscheck.check import FAILURES, CheckOptions, check_instance
from crosscheck.instances import Instance

Clauses = list[list[int]]


@dataclass
class ShrinkResult:
    """The smallest failing formula found, how many checks it took, and the failures kept."""

    clauses: Clauses
    nvars: int
    checks: int
    original_clauses: int
    failures: frozenset[tuple[str, str]]
    record: dict[str, Any]
    interrupted: bool = False  # Ctrl-C stopped it: the smallest failing formula so far
    out_of_checks: bool = False  # max_checks ran out: more checks might shrink it further
    rechecks: int = 0  # checks of the final formula after the shrinking (beyond ``checks``)
    refailed: int = 0  # how many of them failed the same way again
    rechecks_cut: int = 0  # re-checks that Ctrl-C left undone (the shrinking had finished)

    def flaky(self) -> str:
        """``"; failed again in K of N re-checks (a flaky solver?)"`` when the final formula
        did not fail every time it was checked again, else ``""``: a flaky failure lets the
        shrinker keep a formula that failed once by chance. When Ctrl-C cut the re-checks
        short, ``"; re-checks interrupted after N of M"`` follows (N counts only those that
        finished)."""
        text = ""
        if self.refailed != self.rechecks:
            text = (
                f"; failed again in {self.refailed} of {self.rechecks} re-checks (a flaky solver?)"
            )
        if self.rechecks_cut:
            planned = self.rechecks + self.rechecks_cut
            text += f"; re-checks interrupted after {self.rechecks} of {planned}"
        return text

    def was_interrupted(self) -> bool:
        """Whether Ctrl-C (or SIGTERM) came, while shrinking or in the re-checks after it:
        the caller stops what it would do next."""
        return self.interrupted or bool(self.rechecks_cut)

    def stopped_early(self) -> str:
        """``", interrupted"`` when Ctrl-C (or SIGTERM) stopped the shrinking, ``", stopped by
        --max-checks"`` when the budget ran out (either way the formula may not be
        minimal), else ``""``: for the messages and the shrunk file's comment. (Ctrl-C in the
        re-checks, after the shrinking finished, is said by :meth:`flaky`.)"""
        if self.interrupted:
            return ", interrupted"
        return ", stopped by --max-checks" if self.out_of_checks else ""


def failure_signature(
    record: dict[str, Any], timeouts: bool = False
) -> frozenset[tuple[str, str]]:
    """The (solver, outcome) pairs of a record's failed runs; a crash's outcome names its
    kind (``crash (signal 11)``, see `crash_kind`). With ``timeouts`` (``--fail-on-timeout``)
    a run that timed out failed too: ``timeout``, or ``timeout (answered UNKNOWN)``."""
    failed = (*FAILURES, "timeout") if timeouts else FAILURES
    return frozenset(
        (name, _failure(run))
        for name, run in record.get("runs", {}).items()
        if run["outcome"] in failed
    )


def _failure(run: dict[str, Any]) -> str:
    if run["outcome"] == "timeout" and run.get("detail") == "answered UNKNOWN":
        return "timeout (answered UNKNOWN)"  # (run_external's detail) an answer, not a hang
    if run["outcome"] != "crash":
        return run["outcome"]
    return f"crash ({crash_kind(run.get('detail', ''))})"


_SIGNAL = re.compile(r"killed by signal (\w+)")
_EXIT = re.compile(r"exited with code (-?\d+)(?::\s*(.*))?", re.DOTALL)
_UNREADABLE = re.compile(
    r"unreadable output \((?:line \d+ of )?its [^:]*: (.*?)\)(?: |$)", re.DOTALL
)
_REASONS = ("answered SAT", "answered UNSAT", "answered UNKNOWN", "printed no 's' line")


def crash_kind(detail: str) -> str:
    """What kind of crash a run's ``detail`` describes, without what varies with the
    formula (the output's tail, line numbers, numbers inside a reason): ``signal 11``,
    ``exit 10, unreadable output: value lines do not end with N``, ``exit 20, answered
    SAT``, or for an exception the type name (``RecursionError``).

    >>> crash_kind("/bin/x was killed by signal 11: s SATISFIABLE")
    'signal 11'
    >>> crash_kind("x exited with code 10: unreadable output (line 2 of its output: "
    ...            "value lines do not end with 0) ")
    'exit 10, unreadable output: value lines do not end with N'
    >>> crash_kind("x exited with code 20: answered SAT ")
    'exit 20, answered SAT'
    >>> crash_kind("IndexError: list index out of range")
    'IndexError'
    """
    signal = _SIGNAL.search(detail)
    if signal:
        return f"signal {signal[1]}"
    code = _EXIT.search(detail)
    if code:
        rest = code[2] or ""
        unreadable = _UNREADABLE.match(rest)
        if unreadable:
            return f"exit {code[1]}, unreadable output: {re.sub(r'[0-9]+', 'N', unreadable[1])}"
        reason = next((reason for reason in _REASONS if rest.startswith(reason)), None)
        return f"exit {code[1]}" + (f", {reason}" if reason else "")
    return re.sub(r"[0-9]+", "N", detail.split(":", 1)[0].strip()) or "no detail"


class _Budget(Exception):
    """The check budget ran out: keep what has been shrunk so far."""


class Shrunk(NamedTuple):
    """What `shrink_clauses` found: the smallest failing clauses, how many checks it took,
    and whether the budget ran out with candidates left to try (it may shrink further)."""

    clauses: Clauses
    checks: int
    out_of_checks: bool


def shrink_clauses(
    clauses: Sequence[Sequence[int]],
    fails: Callable[[Clauses], bool],
    *,
    max_checks: int = 5000,
) -> Shrunk:
    """Shrink ``clauses`` while ``fails`` holds (``fails(clauses)`` must hold at the start).

    Returns the smallest failing clause list found and the number of calls
    to ``fails``, also when the budget runs out in the middle of a pass (every
    failing candidate is taken as the new formula, so the last one is the
    smallest). Variables are not renumbered here (see :func:`renumber`).

    >>> small, _, _ = shrink_clauses([[1, 2], [3], [-1, 4], [2, 5]], lambda cs: [3] in cs)
    >>> small
    [[3]]
    >>> shrink_clauses([[1, 2], [3], [-1, 4], [2, 5]], lambda cs: [3] in cs, max_checks=2)
    Shrunk(clauses=[[1, 2], [3]], checks=2, out_of_checks=True)
    """
    current: Clauses = [list(clause) for clause in clauses]
    smallest = current
    checks = 0

    def test(candidate: Clauses) -> bool:
        nonlocal checks, smallest
        if checks >= max_checks:
            raise _Budget
        checks += 1
        failed = fails(candidate)
        if failed:
            smallest = candidate
        return failed

    try:
        changed = True
        while changed:
            before = (len(current), sum(map(len, current)))
            current = _clause_pass(current, test)
            current = _literal_pass(current, test)
            changed = (len(current), sum(map(len, current))) != before
    except _Budget:
        return Shrunk(smallest, checks, True)
    return Shrunk(current, checks, False)


def _clause_pass(clauses: Clauses, test: Callable[[Clauses], bool]) -> Clauses:
    """Remove blocks of clauses: width n/2, n/4, …, 1. At each width, first try keeping a
    single block alone (ddmin's "reduce to subset"), which gets past failures that
    depend on how many clauses there are, not only on which."""
    width = max(1, len(clauses) // 2)
    while True:
        if width < len(clauses):
            kept = next(
                (
                    clauses[start : start + width]
                    for start in range(0, len(clauses), width)
                    if test(clauses[start : start + width])
                ),
                None,
            )
            if kept is not None:
                clauses, width = kept, max(1, len(kept) // 2)
                continue
        start = 0
        while start < len(clauses):
            candidate = clauses[:start] + clauses[start + width :]
            if test(candidate):
                clauses = candidate  # the next block has moved to `start`
            else:
                start += width
        if width == 1:
            return clauses
        width //= 2


def _literal_pass(clauses: Clauses, test: Callable[[Clauses], bool]) -> Clauses:
    """Remove single literals from each clause."""
    for index in range(len(clauses)):
        position = 0
        while position < len(clauses[index]):
            clause = clauses[index]
            shorter = clause[:position] + clause[position + 1 :]
            candidate = [*clauses[:index], shorter, *clauses[index + 1 :]]
            if test(candidate):
                clauses = candidate
            else:
                position += 1
    return clauses


def renumber(clauses: Clauses) -> tuple[Clauses, int]:
    """The same clauses over variables 1..n, numbered in order of first occurrence.

    >>> renumber([[7, -3], [3]])
    ([[1, -2], [2]], 2)
    """
    mapping: dict[int, int] = {}
    out = []
    for clause in clauses:
        row = []
        for lit in clause:
            var = mapping.setdefault(abs(lit), len(mapping) + 1)
            row.append(var if lit > 0 else -var)
        out.append(row)
    return out, len(mapping)


ShrinkProgress = Callable[[int, int, int], None]
"""Called after every check with (checks so far, clauses now, clauses at the start)."""


def shrink_instance(
    instance: Instance,
    options: CheckOptions,
    *,
    max_checks: int = 5000,
    progress: ShrinkProgress | None = None,
    first_record: list[dict[str, Any]] | None = None,
    rechecks: int = 2,
    timeouts: bool = False,
) -> ShrinkResult | None:
    """Shrink ``instance``'s clauses while a failure of the plain CNF reproduces.

    The instance is checked as a plain CNF (a maze's path and search checks do
    not survive clause removal). Returns None when the plain CNF shows no
    failure at all. At most ``max_checks`` cross-checks run, the first one (does
    it fail at all?) and the renumbering ones included; ``ShrinkResult.checks``
    is how many ran. ``progress``, when given, is told after every check. Ctrl-C
    after the first check ends the shrinking with the smallest failing formula so
    far (``ShrinkResult.interrupted``); during the first one it is raised.
    ``first_record``, when given, gets the first check's record appended (to say why
    nothing fails without checking again). The final formula is then checked ``rechecks``
    more times (outside ``max_checks``; not after Ctrl-C), and ``ShrinkResult.flaky`` says
    when it did not fail every time. Ctrl-C in those re-checks ends them
    (``ShrinkResult.rechecks_cut``) but leaves the formula unmarked: it is shrunk as far as
    the shrinker goes. With ``timeouts`` (``--fail-on-timeout``) a run that times out is a
    failure too (see `failure_signature`): each check that still hangs takes the timeout.
    """
    original = len(instance.clauses)
    checks = 0
    smallest = original

    def check(clauses: Clauses, nvars: int) -> dict[str, Any]:
        nonlocal checks
        checks += 1
        plain = Instance(
            instance.name, clauses, nvars, "cnf", instance.family,
            from_maze=instance.maze_formula,
        )  # fmt: skip
        return check_instance(plain, options)

    def tell() -> None:
        if progress is not None:
            progress(checks, smallest, original)

    first = check(instance.clauses, instance.nvars)
    if first_record is not None:
        first_record.append(first)
    tell()
    target = failure_signature(first, timeouts)
    if not target:
        return None
    nvars = instance.nvars
    kept = first  # the record of the smallest failing formula so far
    kept_clauses = instance.clauses

    def fails(clauses: Clauses) -> bool:
        nonlocal kept, kept_clauses, smallest
        record = check(clauses, nvars)
        failed = bool(failure_signature(record, timeouts) & target)
        if failed:  # the shrinker takes every failing candidate as its new formula
            kept, kept_clauses, smallest = record, clauses, len(clauses)
        tell()
        return failed

    try:
        clauses, _, out_of_checks = shrink_clauses(
            instance.clauses, fails, max_checks=max_checks - checks
        )
    except KeyboardInterrupt:
        failures = failure_signature(kept, timeouts) & target
        return ShrinkResult(kept_clauses, nvars, checks, original, failures, kept, True)
    # Fewer variables: renumbered 1..n, else the same numbers with nothing above the largest.
    renumbered, count = renumber(clauses)
    used = max((abs(lit) for clause in clauses for lit in clause), default=0)
    tried: list[tuple[Clauses, int]] = []
    interrupted = False
    for candidate, candidate_vars in ((renumbered, count), (clauses, used)):
        no_gain = candidate == clauses and candidate_vars >= nvars
        if no_gain or (candidate, candidate_vars) in tried:
            continue  # nothing to gain over the formula as it stands, or already tried
        if checks >= max_checks:
            out_of_checks = True  # a renumbering left untried
            break
        tried.append((candidate, candidate_vars))
        try:
            record = check(candidate, candidate_vars)
        except KeyboardInterrupt:
            interrupted = True
            break
        tell()
        if failure_signature(record, timeouts) & target:
            clauses, nvars, kept = candidate, candidate_vars, record
            break
    failures = failure_signature(kept, timeouts) & target
    out_of_checks = out_of_checks and not interrupted
    done = checks
    refailed = rechecked = cut = 0
    for _ in range(0 if interrupted else rechecks):
        try:
            again = check(clauses, nvars)
        except KeyboardInterrupt:  # the shrinking had finished: only the re-checks are cut
            cut = rechecks - rechecked  # (the check it stopped is none that did not fail)
            break
        rechecked += 1
        refailed += bool(failure_signature(again, timeouts) & failures)
    return ShrinkResult(
        clauses, nvars, done, original, failures, kept, interrupted, out_of_checks,
        rechecked, refailed, cut,
    )  # fmt: skip
