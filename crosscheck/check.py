"""One instance, every solver: run each under a real deadline, validate each answer, name outcomes.

Outcomes of one solver's run (``Run.outcome``), from worst to best:

- ``disagree``: it said SAT where the instance is satisfiable-proved
  otherwise, or UNSAT where a checked model (or the maze search's valid
  walk) proves SAT;
- ``invalid-model``: it said SAT but its model falsifies an input clause;
- ``invalid-proof``: it is ours, said UNSAT, and dratify rejects its proof;
- ``invalid-path``: the maze search's walk is not valid. (A solver's model
  that satisfies every clause yet decodes to no valid walk indicts the CNF,
  not the solver: the instance is ``bad-input``, the run agrees);
- ``crash``: it raised, died, or printed nothing readable;
- ``timeout``: the deadline stopped it (or it answered UNKNOWN);
- ``agree``: its answer stands.

The truth an answer is judged against: SAT when some model passes the
independent check (or the maze search finds a valid walk); otherwise UNSAT
when some solver says so and no SAT claim (each failed its check) contests
it, or when one of our UNSAT proofs verifies or the maze search finds no walk
(for a maze file, whose CNF is encoded here);
otherwise unknown (a contested UNSAT run keeps ``agree``, its detail says
``unconfirmed``). The instance's verdict is its
worst run outcome. How solvers run: ours in this process with its time
budget (it polls the deadline); PySAT's and registered ones in a forked
child killed at the deadline; external programs as processes killed at the
deadline, on a DIMACS export written once per instance.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from crosscheck.external import run_program, write_clauses
from crosscheck.instances import Instance
from crosscheck.isolate import call_isolated, describe_exception
from crosscheck.registry import EXTERNAL_PREFIX, canonical_name, make_solver, solver_kind
from crosscheck.validate import decode_path, model_problem, path_problem, proof_problem

FAILURES = ("disagree", "invalid-model", "invalid-proof", "invalid-path", "crash")
"""Outcomes that make a batch fail (exit 1)."""

OUTCOMES = (*FAILURES, "timeout", "agree")
"""Every run outcome, worst first."""

SEARCH = "maze-search"
"""The name under which the maze's layered search appears among the runs."""

_STAT_KEYS = ("decisions", "propagations", "conflicts", "restarts", "learned")


@dataclass
class CheckOptions:
    """How to check: ``solvers`` (registry names), ``timeout`` per solver run (seconds),
    ``proofs`` (check our UNSAT proofs with dratify), ``seed`` (for our solvers)."""

    solvers: Sequence[str] = ("dpll:cdcl", "minisat22")
    timeout: float = 60.0
    proofs: bool = False
    seed: int = 0


@dataclass
class Run:
    """One solver on one instance: its answer (``status``: SAT, UNSAT, timeout, crash),
    solve time, and what the checks made of it."""

    solver: str
    status: str
    seconds: float
    model: list[int] | None = None
    proof: list[str] | None = None
    error: str | None = None
    stats: dict[str, int] = field(default_factory=dict)
    outcome: str = "agree"
    detail: str = ""
    proof_check: str | None = None  # verified, rejected, unchecked: …
    path: list[str] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready record of this run (the model and proof are left out: too big)."""
        out: dict[str, Any] = {
            "status": self.status,
            "seconds": round(self.seconds, 6),
            "outcome": self.outcome,
        }
        if self.detail:
            out["detail"] = self.detail
        if self.proof_check:
            out["proof"] = self.proof_check
        if self.path is not None:
            out["path"] = " ".join(self.path)
        if self.stats:
            out["stats"] = self.stats
        return out


# ------------------------------------------------------------------------ running solvers


def _pysat_solve(name: str, clauses: list[list[int]]) -> tuple[Any, ...]:
    """In a forked child: build the solver, time the solve call only, return the answer."""
    solver = make_solver(name, bootstrap_with=clauses)
    try:
        started = time.perf_counter()
        verdict = solver.solve()
        seconds = time.perf_counter() - started
        model = solver.get_model() if verdict else None
        try:
            stats = {k: int(v) for k, v in (solver.accum_stats() or {}).items() if k in _STAT_KEYS}
        except (AttributeError, NotImplementedError, TypeError, ValueError):
            stats = {}
    finally:
        solver.delete()
    return verdict, model, seconds, stats


def _status(verdict: bool | None) -> str:
    return {True: "SAT", False: "UNSAT"}.get(verdict, "timeout")  # type: ignore[arg-type]


def run_ours(name: str, instance: Instance, options: CheckOptions) -> Run:
    """Our solver, in this process, stopped by its own time budget."""
    started = time.perf_counter()
    try:
        solver = make_solver(
            name, bootstrap_with=instance, seed=options.seed, with_proof=options.proofs
        )
        with solver:
            solver.time_budget(options.timeout)
            started = time.perf_counter()
            verdict = solver.solve_limited()
            seconds = time.perf_counter() - started
            stats = {k: int(v) for k, v in solver.accum_stats().items() if k in _STAT_KEYS}
            model = solver.get_model() if verdict else None
            proof = solver.get_proof() if verdict is False and options.proofs else None
    except Exception as exc:
        return Run(name, "crash", time.perf_counter() - started, error=describe_exception(exc))
    return Run(name, _status(verdict), seconds, model, proof, None, stats)


def run_forked(name: str, instance: Instance, options: CheckOptions) -> Run:
    """A PySAT (or registered) solver in a forked child, killed at the deadline."""
    outcome = call_isolated(lambda: _pysat_solve(name, instance.clauses), options.timeout)
    if outcome.kind == "timeout":
        return Run(name, "timeout", outcome.seconds)
    if outcome.kind != "ok":
        return Run(name, "crash", outcome.seconds, error=outcome.error)
    verdict, model, seconds, stats = outcome.value
    return Run(name, _status(verdict), seconds, model, None, None, stats)


def run_external(name: str, cnf_path: str, options: CheckOptions) -> Run:
    """An external program on the instance's DIMACS export (whole-process time)."""
    answer = run_program(name[len(EXTERNAL_PREFIX) :], cnf_path, options.timeout)
    status = answer.status if answer.status in ("SAT", "UNSAT", "crash") else "timeout"
    run = Run(name, status, answer.seconds, answer.model, error=answer.error)
    if answer.status == "UNKNOWN":
        run.detail = "answered UNKNOWN"
    return run


def run_search(instance: Instance, timeout: float) -> Run:
    """The maze's layered search (no SAT involved), under the same deadline."""
    from maze.search import find_walk

    maze = instance.maze
    assert maze is not None

    def search() -> tuple[list[str] | None, float]:
        started = time.perf_counter()
        walk = find_walk(maze)
        return walk, time.perf_counter() - started

    outcome = call_isolated(search, timeout)
    if outcome.kind == "timeout":
        return Run(SEARCH, "timeout", outcome.seconds)
    if outcome.kind != "ok":
        return Run(SEARCH, "crash", outcome.seconds, error=outcome.error)
    walk, seconds = outcome.value
    return Run(SEARCH, "UNSAT" if walk is None else "SAT", seconds, path=walk)


def run_solvers(instance: Instance, options: CheckOptions) -> list[Run]:
    """Every solver of ``options`` on ``instance`` (plus the maze search when the maze is known)."""
    runs: list[Run] = []
    with contextlib.ExitStack() as stack:
        cnf_path: str | None = None  # the DIMACS export, written once when a program needs it
        for name in map(canonical_name, options.solvers):
            kind = solver_kind(name)
            if kind == "ours":
                runs.append(run_ours(name, instance, options))
            elif kind == "external":
                if cnf_path is None:
                    folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="satkit-"))
                    cnf_path = os.path.join(folder, "instance.cnf")
                    write_clauses(cnf_path, instance.nvars, instance.clauses)
                runs.append(run_external(name, cnf_path, options))
            else:
                runs.append(run_forked(name, instance, options))
    if instance.maze is not None:
        runs.append(run_search(instance, options.timeout))
    return runs


# ------------------------------------------------------------------------------ judging


def _check_proof(instance: Instance, run: Run, timeout: float) -> None:
    """Fill ``run.proof_check`` (and the outcome when dratify rejects the proof)."""
    proof = run.proof or []
    outcome = call_isolated(lambda: proof_problem(instance.clauses, proof), timeout)
    if outcome.kind == "ok" and outcome.value is None:
        run.proof_check = "verified"
    elif outcome.kind == "ok":
        run.proof_check = "rejected"
        run.outcome, run.detail = "invalid-proof", outcome.value
    elif outcome.kind == "timeout":
        run.proof_check = f"unchecked: the check took more than {timeout:g} s"
    else:
        run.proof_check = f"unchecked: {outcome.error}"


def judge(instance: Instance, runs: list[Run], options: CheckOptions) -> str | None:
    """Validate every answer, set each run's outcome, and return the truth (SAT/UNSAT/None)."""
    evidence: str | None = None  # what proves SAT, if anything
    nvars: int | None = None  # the variables a model may name (found at the first model)
    for run in runs:
        if run.status == "crash":
            run.outcome, run.detail = "crash", run.error or "no answer"
        elif run.status == "timeout":
            run.outcome = "timeout"
            run.detail = run.detail or f"no answer within {options.timeout:g} s"
        elif run.solver == SEARCH:
            if run.status == "SAT":
                assert instance.maze is not None and run.path is not None
                problem = path_problem(instance.maze, run.path)
                if problem:
                    run.outcome, run.detail = "invalid-path", f"search walk: {problem}"
                else:
                    evidence = evidence or "the maze search found a valid walk"
        elif run.status == "SAT":
            if nvars is None:  # those of the DIMACS export: the header's or the clauses'
                largest = max(map(_largest_variable, instance.clauses), default=0)
                nvars = max(instance.nvars, largest)
            problem = model_problem(instance.clauses, run.model, nvars)
            if problem:
                run.outcome, run.detail = "invalid-model", problem
                continue
            evidence = evidence or f"the model of {run.solver} satisfies every clause"
            run.detail = f"model satisfies all {len(instance.clauses)} clauses"
            if instance.key is not None:
                path, why = decode_path(run.model or [], instance.key, instance.name)
                run.path = path
                if why is None and instance.maze is not None and path is not None:
                    why = path_problem(instance.maze, path)
                if why is not None:
                    run.outcome, run.detail = "invalid-path", why
    truth = "SAT" if evidence else None
    unsat = [run for run in runs if run.status == "UNSAT"]
    if truth is None and unsat:
        for run in unsat:
            if run.proof is not None:
                _check_proof(instance, run, options.timeout)
        # SAT claims left here all failed their check; one still contests an unchecked UNSAT
        claims = [run.solver for run in runs if run.status == "SAT"]
        # the layered search shares nothing with SAT: its "no walk" is a reference answer,
        # for a CNF encoded here from the maze (a given maze CNF may encode something else)
        by_search = instance.kind == "maze"
        settled = any(
            run.proof_check == "verified" or (by_search and run.solver == SEARCH)
            for run in unsat
        )
        if not claims or settled:
            truth = "UNSAT"
        else:
            for run in unsat:
                if run.outcome == "agree":
                    run.detail = f"unconfirmed: {', '.join(claims)} said SAT, with no valid model"
    for run in runs:
        if run.status not in ("SAT", "UNSAT") or run.outcome != "agree":
            continue
        if truth is not None and run.status != truth:
            run.outcome = "disagree"
            run.detail = f"says {run.status}, but " + (
                evidence if truth == "SAT" else "no model passed the check and others say UNSAT"
            )
    return truth


def _largest_variable(clause: Sequence[int]) -> int:
    return max(max(clause), -min(clause)) if clause else 0


def encoding_fault(instance: Instance, runs: Sequence[Run]) -> str | None:
    """What is wrong with the instance when a model satisfies every clause yet decodes to
    no valid walk (a stale CNF, another maze, a DP output read as input): the solver
    did its job, so such runs are put back to ``agree``; None when there is no such run."""
    fault = None
    for run in runs:
        if run.solver == SEARCH or run.outcome != "invalid-path":
            continue
        if fault is None:
            what = f"maze {instance.maze.name}" if instance.maze is not None else "its key"
            fault = (
                f"{instance.name}: the CNF does not encode {what}: the model of {run.solver} "
                f"satisfies every clause but decodes to no valid walk ({run.detail})"
            )
        run.outcome = "agree"
        run.detail = f"model satisfies all {len(instance.clauses)} clauses; no walk: {run.detail}"
    for run in runs:
        if fault is not None and run.solver == SEARCH and run.outcome == "disagree":
            run.outcome = "agree"  # right about the maze; the CNF is what is wrong
            run.detail = "no walk in the maze; the CNF's models are no walks"
    return fault


def verdict_of(runs: Sequence[Run]) -> str:
    """The instance's verdict: the worst outcome among its runs (``agree`` when none)."""
    outcomes = {run.outcome for run in runs}
    return next((outcome for outcome in OUTCOMES if outcome in outcomes), "agree")


def check_instance(instance: Instance, options: CheckOptions) -> dict[str, Any]:
    """Run and judge every solver on ``instance``; return its JSON-ready record."""
    if any(solver_kind(name) == "ours" for name in options.solvers):
        from dpll.solver import TooManyVariables, check_variable_room

        try:  # as `satkit solve` refuses it: bad input, not a crash of our solver
            check_variable_room(instance.nvars)
        except TooManyVariables as exc:
            record = bad_input_record(
                instance.name, instance.path, f"{instance.name}: {exc}", options
            )
            record.update(
                family=instance.family, kind=instance.kind, variables=instance.nvars,
                clauses=len(instance.clauses), notes=list(instance.notes),
            )  # fmt: skip
            return record
    runs = run_solvers(instance, options)
    truth = judge(instance, runs, options)
    fault = encoding_fault(instance, runs)
    record: dict[str, Any] = {
        "instance": instance.name,
        "path": instance.path,
        "family": instance.family,
        "kind": instance.kind,
        "variables": instance.nvars,
        "clauses": len(instance.clauses),
        "solvers": [canonical_name(name) for name in options.solvers],
        "timeout": options.timeout,
        "solver_seed": options.seed,
        "verdict": "bad-input" if fault else verdict_of(runs),
        "answer": truth,
        "runs": {run.solver: run.as_dict() for run in runs},
    }
    if fault:
        record["error"] = fault
    if instance.encoding:
        record["encoding"] = instance.encoding
    if instance.seed is not None:
        record["seed"] = instance.seed
    record["notes"] = list(instance.notes)
    return record


def bad_input_record(
    name: str, path: str | None, message: str, options: CheckOptions, verdict: str = "bad-input"
) -> dict[str, Any]:
    """The record of an instance that yielded no runs: unreadable (``bad-input``), or its
    worker died (``crash``) or overran the watchdog (``timeout``); ``message`` says why.
    It has every field of `check_instance`'s records, None where nothing is known."""
    family = os.path.basename(os.path.dirname(path)) if path else ""
    return {
        "instance": name,
        "path": path,
        "family": family,
        "kind": None,
        "variables": None,
        "clauses": None,
        "solvers": [canonical_name(name) for name in options.solvers],
        "timeout": options.timeout,
        "solver_seed": options.seed,
        "verdict": verdict,
        "answer": None,
        "error": message,
        "runs": {},
        "notes": [],
    }
