"""One instance, every solver: run each under a real deadline, validate each answer, name outcomes.

Outcomes of one solver's run (``Run.outcome``), from worst to best:

- ``disagree``: it said SAT where the instance is satisfiable-proved
  otherwise, or UNSAT where a checked model (or the maze search's valid
  walk) proves SAT;
- ``invalid-model``: it said SAT but its model falsifies an input clause;
- ``invalid-proof``: it said UNSAT and dratify rejects its proof (with
  ``proofs``: ours, those of PySAT's solvers in :data:`PYSAT_PROOFS`, and
  the proof files of ``bin:cadical`` and ``bin:kissat``);
- ``invalid-path``: the maze search's walk is not valid. (A solver's model
  that satisfies every clause yet decodes to no valid walk indicts the CNF,
  not the solver: the instance is ``bad-input``, the run agrees);
- ``crash``: it raised, died, or printed nothing readable;
- ``timeout``: the deadline stopped it (or it answered UNKNOWN);
- ``agree``: its answer stands.

The truth an answer is judged against: SAT when some model passes the
independent check (or the maze search finds a valid walk); otherwise UNSAT
when some solver says so and no SAT claim (each failed its check) contests
it, or when one of the UNSAT proofs verifies or the maze search finds no walk
(for a maze file, whose CNF is encoded here);
otherwise unknown (a contested UNSAT run keeps ``agree``, its detail says
``unconfirmed``). An UNSAT that one solver alone gave (every other run timed
out or crashed) and no verified proof backs stands, but its run's detail
says so (:data:`LONE_UNSAT`). The instance's verdict is its
worst run outcome. How solvers run: ours in this process with its time
budget (it polls the deadline); PySAT's and registered ones in a forked
child killed at the deadline; external programs as processes killed at the
deadline, on a DIMACS export written once per instance.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psutil

from crosscheck.external import run_program, write_clauses, writes_proof
from crosscheck.instances import Instance
from crosscheck.isolate import call_isolated, describe_exception
from crosscheck.registry import (
    EXTERNAL_PREFIX,
    canonical_name,
    make_solver,
    maze_options,
    solver_kind,
)
from crosscheck.validate import (
    decode_path,
    model_problem,
    path_problem,
    proof_file_problem,
    proof_problem,
)
from formats.memory import available_memory

FAILURES = ("disagree", "invalid-model", "invalid-proof", "invalid-path", "crash")
"""Outcomes that make a batch fail (exit 1)."""

OUTCOMES = (*FAILURES, "timeout", "agree")
"""Every run outcome, worst first."""

SEARCH = "maze-search"
"""The name under which the maze's layered search appears among the runs."""

PYSAT_PROOFS = frozenset({
    "cadical103", "cadical153", "cadical195", "cadical300", "ergo", "glucose3", "glucose4",
    "glucose42", "gluecard3", "gluecard4", "lingeling", "maplechrono",
})  # fmt: skip
"""PySAT's solvers asked for a proof (``with_proof=True``) under ``proofs``: those whose
proofs dratify verified on 147 of SATLIB's UNSAT instances (aim, dubois, pret, hole6-7,
uuf50; PySAT 1.9). ``minisat22``, ``minisatgh``, ``minicard``, ``minisatep``, ``kissat404``
and ``mergesat3`` trace none; ``maplesat`` and ``maplecm`` trace proofs that dratify rejects
for reasons of their own (:data:`UNUSABLE_PROOFS`)."""

UNUSABLE_PROOFS = {
    "maplesat": "PySAT's maplesat numbers the proof's variables one too high: pysat issue #139",
    "maplecm": "PySAT's maplecm may end its proof without the empty clause",
}
"""Solvers whose proofs are not asked for, and why (said in their UNSAT runs' ``proof``)."""

LONE_UNSAT = "unconfirmed: no other solver answered"
"""The detail of an UNSAT run that alone settles its instance, with no verified proof."""

_CHECK_BYTES_PER_BYTE = 20
"""Memory dratify takes to check a proof, per byte of proof text (about 9 measured on a
34 MB CaDiCaL proof, doubled): a proof file is not checked when it would not fit."""

_STAT_KEYS = ("decisions", "propagations", "conflicts", "restarts", "learned")


@dataclass
class CheckOptions:
    """How to check: ``solvers`` (registry names), ``timeout`` per solver run (seconds),
    ``proofs`` (ask every solver that can give a DRAT proof for one, and check each UNSAT
    answer's proof with dratify), ``seed`` (for our solvers)."""

    solvers: Sequence[str] = ("dpll:cdcl", "minisat22")
    timeout: float = 60.0
    proofs: bool = False
    seed: int = 0


@dataclass
class Run:
    """One solver on one instance: its answer (``status``: SAT, UNSAT, timeout, crash),
    solve time, and what the checks made of it. An UNSAT answer's proof is ``proof`` (text
    lines, ours) or the text DRAT file ``proof_file`` (PySAT's solvers and programs)."""

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
    proof_file: str | None = None

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


def _pysat_solve(
    name: str, clauses: list[list[int]], proof_path: str | None = None
) -> tuple[Any, ...]:
    """In a forked child: build the solver, time the solve call only, return the answer.

    With ``proof_path`` the solver traces a proof, and after UNSAT it is written there as
    text (a file, not the pipe back, carries it: it may be big). The last item returned
    says why no proof was written after UNSAT, or is None."""
    no_proof = None
    tracing = {"with_proof": True} if proof_path else {}
    try:
        solver = make_solver(name, bootstrap_with=clauses, **tracing)
    except NotImplementedError:  # this PySAT build traces no proof for it: solve without
        solver = make_solver(name, bootstrap_with=clauses)
        proof_path, no_proof = None, f"{name} gives no proof"
    try:
        started = time.perf_counter()
        verdict = solver.solve()
        seconds = time.perf_counter() - started
        model = solver.get_model() if verdict else None
        try:
            stats = {k: int(v) for k, v in (solver.accum_stats() or {}).items() if k in _STAT_KEYS}
        except (AttributeError, NotImplementedError, TypeError, ValueError):
            stats = {}
        if verdict is False and proof_path is not None:
            with open(proof_path + ANSWERED, "w", encoding="ascii") as marker:
                marker.write(f"{seconds!r}\n")  # (the answer stands while the proof is written)
            no_proof = _write_proof(name, solver, proof_path)
    finally:
        solver.delete()
    return verdict, model, seconds, stats, no_proof


ANSWERED = ".answered"
"""Beside a PySAT solver's proof file: written by the child once its solve has answered
UNSAT (holding the solve's seconds), before the proof, which may take a while to write:
the deadline is then for the solve, not the writing (`run_forked`)."""

PROOF_GRACE = 10.0
"""Seconds at least that a child that answered UNSAT in time gets to write its proof
beyond the deadline (or the timeout itself, when that is longer)."""


def _answered_seconds(proof_path: str) -> float | None:
    """The solve time a child wrote beside ``proof_path`` on answering UNSAT (None: none)."""
    try:
        with open(proof_path + ANSWERED, encoding="ascii") as marker:
            return float(marker.read())
    except (OSError, ValueError):
        return None


def _write_proof(name: str, solver: Any, path: str) -> str | None:
    """Write the proof ``solver`` traced to ``path``, one line a step; why it could not be
    written (None when it was). The answer stands either way."""
    try:
        proof = solver.get_proof()
        if proof is None:
            return f"{name} gives no proof"
        with open(path, "w", encoding="ascii") as handle:
            handle.writelines(f"{line}\n" for line in proof)
    except NotImplementedError:
        return f"{name} gives no proof"
    except (MemoryError, OSError, UnicodeError) as exc:
        return f"the proof of {name} could not be saved: {describe_exception(exc)}"
    return None


def _status(verdict: bool | None) -> str:
    return {True: "SAT", False: "UNSAT"}.get(verdict, "timeout")  # type: ignore[arg-type]


def run_ours(name: str, instance: Instance, options: CheckOptions) -> Run:
    """Our solver, in this process, stopped by its own time budget. On a maze, ``dpll``
    (``dpll:cdcl``) searches as in ``satkit maze solve``, with `DPLL_OPTIONS`."""
    tuned = maze_options(name) if instance.maze_formula else {}
    started = time.perf_counter()
    try:
        solver = make_solver(
            name, bootstrap_with=instance, seed=options.seed, with_proof=options.proofs,
            **tuned,
        )  # fmt: skip
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


def run_forked(
    name: str, instance: Instance, options: CheckOptions, proof_path: str | None = None
) -> Run:
    """A PySAT (or registered) solver in a forked child, killed at the deadline. With
    ``proof_path``, a solver of :data:`PYSAT_PROOFS` writes its UNSAT proof there."""
    if name not in PYSAT_PROOFS:
        proof_path = None
    grace = max(PROOF_GRACE, options.timeout or 0.0)

    def in_time() -> float | None:  # the solve's seconds, when it answered UNSAT in time
        solved = None if proof_path is None else _answered_seconds(proof_path)
        limit = options.timeout
        return solved if solved is not None and (limit is None or solved <= limit) else None

    outcome = call_isolated(
        lambda: _pysat_solve(name, instance.clauses, proof_path),
        options.timeout,
        lambda: grace if in_time() is not None else 0.0,
    )
    if outcome.kind == "timeout":
        solved = in_time()
        if solved is not None:  # UNSAT in time; the proof was not written in the grace
            run = Run(name, "UNSAT", solved)
            run.proof_check = f"unchecked: writing the proof took more than {grace:g} s"
            return run
        return Run(name, "timeout", outcome.seconds)
    if outcome.kind != "ok":
        return Run(name, "crash", outcome.seconds, error=outcome.error)
    verdict, model, seconds, stats, no_proof = outcome.value
    run = Run(name, _status(verdict), seconds, model, None, None, stats)
    if verdict is False and proof_path is not None:
        if no_proof is None:
            run.proof_file = proof_path
        else:
            run.proof_check = f"unchecked: {no_proof}"
    return run


def run_external(
    name: str, cnf_path: str, options: CheckOptions, proof_path: str | None = None
) -> Run:
    """An external program on the instance's DIMACS export (whole-process time). With
    ``proof_path``, a program that writes proofs (CaDiCaL, Kissat) writes its DRAT there."""
    program = name[len(EXTERNAL_PREFIX) :]
    if not writes_proof(program):
        proof_path = None
    answer = run_program(program, cnf_path, options.timeout, proof_path=proof_path)
    status = answer.status if answer.status in ("SAT", "UNSAT", "crash") else "timeout"
    run = Run(name, status, answer.seconds, answer.model, error=answer.error)
    if answer.status == "UNKNOWN":
        run.detail = "answered UNKNOWN"
    if status == "UNSAT" and proof_path is not None:
        if os.path.isfile(proof_path):
            run.proof_file = proof_path
        else:
            run.proof_check = f"unchecked: {name} wrote no proof file"
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


def run_solvers(instance: Instance, options: CheckOptions, folder: str) -> list[Run]:
    """Every solver of ``options`` on ``instance`` (plus the maze search when the maze is
    known). ``folder`` (empty, the caller's to remove) takes the DIMACS export that programs
    read and the proof files, which must last until the runs are judged."""
    runs: list[Run] = []
    cnf_path: str | None = None  # the DIMACS export, written once when a program needs it
    for number, name in enumerate(map(canonical_name, options.solvers), start=1):
        proof_path = os.path.join(folder, f"proof-{number}.drat") if options.proofs else None
        kind = solver_kind(name)
        if kind == "ours":
            runs.append(run_ours(name, instance, options))
        elif kind == "external":
            if cnf_path is None:
                cnf_path = os.path.join(folder, "instance.cnf")
                write_clauses(cnf_path, instance.nvars, instance.clauses)
            runs.append(run_external(name, cnf_path, options, proof_path))
        else:
            runs.append(run_forked(name, instance, options, proof_path))
    if instance.maze is not None:
        runs.append(run_search(instance, options.timeout))
    return runs


# ------------------------------------------------------------------------------ judging


def _check_proof(instance: Instance, run: Run, timeout: float) -> None:
    """Fill ``run.proof_check`` (and the outcome when dratify rejects the proof)."""
    if run.proof_file is not None:
        path = run.proof_file
        too_big = _proof_too_big(path)
        if too_big:
            run.proof_check = f"unchecked: {too_big}"
            return
        outcome = call_isolated(lambda: proof_file_problem(instance.clauses, path), timeout)
    else:
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


def _proof_too_big(path: str) -> str | None:
    """Why the proof file at ``path`` is not checked: it would not fit in the memory free
    now (None when it would), as `formats.memory.available_memory` counts it — a
    container's cgroup limit and ``ulimit -v`` included, which the machine's free memory
    alone overstated."""
    size = os.path.getsize(path)
    free = available_memory()
    if free is None:
        free = psutil.virtual_memory().available
    need = size * _CHECK_BYTES_PER_BYTE
    if need <= free:
        return None
    return (
        f"the proof ({size / 1e6:,.0f} MB) needs about {need / 1e6:,.0f} MB of memory to "
        f"check; {free / 1e6:,.0f} MB are available"
    )


def why_no_proof(solver: str) -> str:
    """The ``proof`` of an UNSAT run that gave none to check, under ``proofs``.

    >>> why_no_proof("minisat22")
    'unchecked: minisat22 gives no proof'
    """
    reason = UNUSABLE_PROOFS.get(solver)
    return f"unchecked: {solver} gives no proof" + (f" fit to check ({reason})" if reason else "")


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
    # (when a checked model proves SAT, every UNSAT run disagrees: no proof is checked, and
    # none is missing: "wrote no proof file" was counted as unchecked, audit 21-C #3)
    if truth == "SAT":
        for run in unsat:
            run.proof_check = None
    if truth is None and unsat:
        for run in unsat:
            if run.proof is not None or run.proof_file is not None:
                _check_proof(instance, run, options.timeout)
            elif options.proofs and not run.proof_check and run.solver != SEARCH:
                run.proof_check = why_no_proof(run.solver)  # (the maze search: a reference)
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
            # one answer, nothing to check it against: it stands (a timeout fails nothing)
            # but says it is alone
            if len(unsat) == 1 and not settled and unsat[0].outcome == "agree":
                unsat[0].detail = LONE_UNSAT
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
    with tempfile.TemporaryDirectory(prefix="satkit-") as folder:
        runs = run_solvers(instance, options, folder)
        truth = judge(instance, runs, options)  # (proof files are checked here)
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
