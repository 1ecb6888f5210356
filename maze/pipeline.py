"""The whole pipeline in one call: encode, solve, decode, validate (optionally for the least K).

The solver is not chosen here: the caller passes a factory that turns a list
of clauses into an object with the PySAT surface (``solve``, ``get_model``,
``accum_stats``, ``delete``) — ``dpll.Solver``, a PySAT solver, or whatever
``crosscheck.registry.make_solver`` builds. So library code never imports
PySAT's solvers.

>>> from maze.parser import parse_maze
>>> from dpll import Solver
>>> maze = parse_maze("START A B\\nGOLD WAND\\n3\\nSTART TREASURES NEXT A B\\n"
...                   "A TREASURES GOLD NEXT START\\nB TREASURES WAND NEXT START\\n")
>>> answer = solve_maze(maze, lambda clauses: Solver(bootstrap_with=clauses))
>>> answer.text() in ("START A START B", "START B START A")
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from formats.errors import FormatError
from maze.cnf import encode
from maze.decoder import NO_SOLUTION, check_model, path_from_valuation
from maze.encoder import Atoms
from maze.key import Key
from maze.model import Maze
from maze.search import SearchLimit, find_walk, shorter_walk, shortest_walk
from maze.validator import path_problems

SolverFactory = Callable[[list[list[int]]], Any]
"""Clauses -> a solver with the PySAT surface, already loaded with them."""

DPLL_OPTIONS: dict[str, Any] = {
    "luby_unit": 100,
    "occurrence_start": False,
    "reason_bump": 0.0,
    "lucky": False,
}
"""Options for ``dpll.Solver`` (cdcl) on maze formulas. They are planning-like: one
decision propagates thousands of literals, and restarting every 100 conflicts (Luby
unit 100, MiniSat's default) needs a third of the conflicts that dpll's default unit of
1,000 — tuned for random 3-SAT — does (generated 1,000-node mazes, seeds 1-10: median
3.2x fewer, never more; see bench/README.md). The first decisions follow the encoding's
numbering, time step by time step, rather than occurrence counts (the engine's default,
good on random formulas): 1,000-node mazes, seeds 1-5, 8.1-8.4 s of solving in all against
9.7 s with occurrence counts. No reason-side bumping: on 1,000-node mazes, seeds 1-4, it
took 1,781 conflicts against 489 (experiment 20). No lucky phases (`dpll.lucky`): on
1,000-node mazes, seeds 1-5, each of the four attempts propagated 25,000-50,000 literals
before its conflict and none solved one, 160-190 ms per maze (CPU seconds in all, 14.7
against 13.3), while the search met the same conflicts (stop 23)."""


CONFIRM_SECONDS = 5.0
"""How long the layered search may take to confirm "unsatisfiable" answers: past that,
they stand unconfirmed and the attempts say so (so whether one is confirmed can
depend on the machine; the answer does not)."""


class MazeSolveError(RuntimeError):
    """The solver's answer did not survive the checks: a wrong model, an invalid path, or
    "unsatisfiable" for a K at which the layered search finds a walk."""


@dataclass
class Attempt:
    """One K tried: its size, the solver's verdict, statistics and times (seconds).

    ``satisfiable`` is None when the solver gave no answer. ``confirmed`` tells, for
    an "unsatisfiable", whether the layered search confirmed it (None: the search
    gave up after `CONFIRM_SECONDS`); ``decode_seconds`` covers the checks.
    """

    steps: int
    satisfiable: bool | None
    clauses: int
    variables: int
    atoms: int
    encode_seconds: float
    solve_seconds: float
    decode_seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)
    confirmed: bool | None = None

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "steps": self.steps,
            "satisfiable": self.satisfiable,
            "clauses": self.clauses,
            "variables": self.variables,
            "atoms": self.atoms,
            "encode_seconds": round(self.encode_seconds, 6),
            "solve_seconds": round(self.solve_seconds, 6),
            "decode_seconds": round(self.decode_seconds, 6),
            "stats": self.stats,
            "confirmed": self.confirmed,
        }


@dataclass
class MazeAnswer:
    """The pipeline's result: the path (None = no solution, or unknown) and every attempt.

    ``unknown`` is True when the solver gave no answer (or the run was interrupted):
    then there is neither a path nor a "no solution". ``shorter`` is, for a "no
    solution" at the maze's K, a walk of fewer moves that collects every treasure when
    one exists (the encoding makes every step a move, so it is no answer for K itself).
    """

    maze: Maze
    encoding: str
    path: list[str] | None
    attempts: list[Attempt]
    unknown: bool = False
    shorter: list[str] | None = None

    @property
    def status(self) -> str:
        """``found``, ``no solution`` or ``unknown``."""
        if self.unknown:
            return "unknown"
        return "no solution" if self.path is None else "found"

    @property
    def steps(self) -> int | None:
        """The K of the path (None without one)."""
        return None if self.path is None else len(self.path) - 1

    def text(self) -> str:
        """The back end's answer: the path line or ``NO SOLUTION`` (empty when unknown)."""
        if self.unknown:
            return ""
        return NO_SOLUTION if self.path is None else " ".join(self.path)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the status, the answer (None when unknown), K, the
        encoding, and each attempt."""
        return {
            "maze": self.maze.name,
            "status": self.status,
            "answer": None if self.unknown else self.text(),
            "path": self.path,
            "steps": self.steps,
            "encoding": self.encoding,
            "attempts": [attempt.as_dict() for attempt in self.attempts],
            "shorter_walk": self.shorter,
        }


def _stats(solver: Any) -> dict[str, int]:
    try:
        stats = solver.accum_stats()
    except (AttributeError, NotImplementedError):  # e.g. PySAT's Kissat exposes none
        return {}
    return dict(stats or {})


def _key(atoms: Atoms) -> Key:
    """The key of an encoding, built from its numbering (what its key text says, unparsed)."""
    key = Key()
    for step in range(atoms.steps + 1):
        for node in atoms.nodes:
            key.at[atoms.at(node, step)] = (node, step)
        for treasure in atoms.treasures:
            key.has[atoms.has(treasure, step)] = (treasure, step)
    return key


def attempt(
    maze: Maze,
    steps: int,
    factory: SolverFactory,
    encoding: str = "assignment",
    *,
    confirm: bool = True,
) -> tuple[Attempt, list[str] | None]:
    """Encode ``maze`` with K = ``steps``, solve, decode and validate.

    Returns the attempt's record and the path (None when unsatisfiable or when the
    solver gave no answer: ``record.satisfiable`` tells which). Raises
    :class:`MazeSolveError` when the model breaks a clause or decodes to an invalid
    path, or when the layered search finds a walk the solver says does not exist
    (``confirm``: the caller may confirm "unsatisfiable" itself, as `solve_maze` does
    for all the K of ``shortest`` at once).
    """
    started = time.perf_counter()
    cnf = encode(maze.with_steps(steps), encoding)
    clauses = cnf.clause_list()
    encoded = time.perf_counter()
    solver = factory(clauses)
    try:
        verdict = _run(solver)
        model = solver.get_model() if verdict else None
        stats = _stats(solver)
    finally:
        solver.delete()
    solved = time.perf_counter()
    record = Attempt(
        steps, verdict, cnf.clause_count, cnf.nvars, cnf.atoms.count,
        encoded - started, solved - encoded, 0.0, stats,
    )  # fmt: skip
    if verdict is None:
        return record, None
    if not verdict:
        if confirm:
            try:
                walk = find_walk(maze, steps, deadline=time.monotonic() + CONFIRM_SECONDS)
            except SearchLimit:
                record.confirmed = None
            else:
                if walk is not None:
                    raise _lie(maze, walk)
                record.confirmed = True
        record.decode_seconds = time.perf_counter() - solved
        return record, None
    if not model and cnf.nvars:
        # (as crosscheck and maze decode say: cadical -n and glucose without -model print this)
        raise MazeSolveError("the solver said SATISFIABLE but gave no model")
    valuation = {abs(lit): lit > 0 for lit in model}
    where = f"{maze.name} (K={steps}, {encoding} encoding)"
    try:
        check_model(clauses, valuation, where, cnf.nvars)
        key = _key(cnf.atoms)
        path = path_from_valuation(valuation, key, where)
    except FormatError as exc:
        raise MazeSolveError(f"the solver's model is wrong: {exc}") from None
    problems = path_problems(maze, path, steps)
    if problems:
        raise MazeSolveError(
            f"{where}: the decoded path {' '.join(path)} is invalid: {'; '.join(problems)}"
        )
    record.decode_seconds = time.perf_counter() - solved
    return record, path


def _run(solver: Any) -> bool | None:
    """The solver's verdict: None when it gave no answer (an external program's UNKNOWN).

    ``solve_limited`` says None instead of raising when a solver gives up; no budget
    is set, so ours and PySAT's run to the end. PySAT's Lingeling has no
    ``solve_limited`` (it raises NotImplementedError before solving): plain ``solve``.
    """
    limited = getattr(solver, "solve_limited", None)
    if limited is not None:
        try:
            return limited()
        except NotImplementedError:
            pass
    return solver.solve()


def _lie(maze: Maze, walk: list[str]) -> MazeSolveError:
    return MazeSolveError(
        f"{maze.name}: the solver says K={len(walk) - 1} has no solution, but the "
        f"layered search finds the walk {' '.join(walk)}"
    )


def _confirm_below(maze: Maze, attempts: list[Attempt], top: int) -> None:
    """Confirm every "unsatisfiable" attempt of ``shortest`` at once: the least number
    of moves of any walk must exceed ``top`` (one layered search, not one per K)."""
    try:
        walk = shortest_walk(maze, top, deadline=time.monotonic() + CONFIRM_SECONDS)
    except SearchLimit:
        return  # they stay unconfirmed (None)
    if walk is not None:
        raise _lie(maze, walk)
    for record in attempts:
        if record.satisfiable is False:
            record.confirmed = True


def solve_maze(
    maze: Maze,
    factory: SolverFactory,
    *,
    encoding: str = "assignment",
    shortest: bool = False,
    on_attempt: Callable[[Attempt], None] | None = None,
    before_attempt: Callable[[int], None] | None = None,
) -> MazeAnswer:
    """Solve ``maze`` through SAT: its own K, or with ``shortest`` the least K ≤ its K that works.

    ``factory(clauses)`` builds a loaded solver for each K tried;
    ``before_attempt(K)`` is called before each K is encoded (a size check may raise
    there) and ``on_attempt`` after each one (for progress reports). The search stops
    at the first K the solver gives no answer for: the answer is then unknown.
    """
    candidates = range(maze.steps + 1) if shortest else [maze.steps]
    attempts: list[Attempt] = []
    path = None
    for steps in candidates:
        if before_attempt is not None:
            before_attempt(steps)
        record, path = attempt(maze, steps, factory, encoding, confirm=not shortest)
        attempts.append(record)
        if on_attempt is not None:
            on_attempt(record)
        if record.satisfiable is None:
            return MazeAnswer(maze, encoding, None, attempts, unknown=True)
        if path is not None:
            break
    if shortest and attempts[0].satisfiable is False:
        _confirm_below(maze, attempts, attempts[-1].steps - (path is not None))
    shorter = None
    if not shortest and path is None and attempts[-1].confirmed:
        shorter = shorter_walk(maze, maze.steps, CONFIRM_SECONDS)
    return MazeAnswer(maze, encoding, path, attempts, shorter=shorter)
