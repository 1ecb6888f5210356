"""Benchmark dpll's solvers against MiniSat 2.2, SymPy dpll2, simplesat and cdclkit on SATLIB.

Every solver gets the same clauses (parsed once per run by ``formats.dimacs``) and is
timed around its solve call only; parsing, set-up and interpreter start are excluded
from that figure and reported separately as whole-process time. Each (solver,
instance) pair runs in its own process, killed at the cap (60 s by default, counted
from the moment the solver is set up). Answers are checked: models against the
clauses, statuses against the family's known status.

    python bench/solve.py                                  # everything (hours)
    python bench/solve.py --families uf250 --solvers minisat22,cdcl
    python bench/solve.py --per-family 3 --cap 10 --json results.json
    python bench/solve.py --families flat100,blocksworld --shuffle 1-3

``--shuffle`` solves each instance once per seed with its variables renamed and its
clauses and literals reordered by that seed (the same for every solver): the same
problem without the luck of the file's numbering, which decides some families (a
solver that follows the numbering colours SATLIB's flat graphs without a conflict).

This is a benchmark, not a test: run it on a quiet machine. See bench/README.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used, so that seeds.py --tree can pick the tree first
    from formats.formula import Formula

ROOT = Path(__file__).resolve().parents[1]
SATLIB = ROOT.parent / "shared" / "bench" / "satlib"

# family -> (folder, explicit instance names or None for "first N", expected status)
FAMILIES: dict[str, tuple[str, list[str] | None, str]] = {
    "uf100": ("uf100", None, "SAT"),
    "uuf100": ("uuf100", None, "UNSAT"),
    "uf150": ("uf150", None, "SAT"),
    "uuf150": ("uuf150", None, "UNSAT"),
    "uf250": ("uf250", None, "SAT"),
    "uuf250": ("uuf250", None, "UNSAT"),
    "flat100": ("flat100", None, "SAT"),
    "flat200": ("flat200", None, "SAT"),
    "logistics": ("logistics", None, "SAT"),
    "blocksworld": ("blocksworld", ["bw_large.a.cnf", "bw_large.b.cnf", "bw_large.c.cnf"], "SAT"),
    "pigeonhole": ("pigeonhole", ["hole6.cnf", "hole7.cnf", "hole8.cnf"], "UNSAT"),
}
PEERS = ("minisat22", "dpll2", "simplesat", "cdclkit")
NEEDS = {"dpll2": "sympy", "simplesat": "simplesat", "cdclkit": "cdclkit"}
"""The module each pure-Python peer comes in (the ``bench`` extra: pip install -e '.[bench]')."""
OURS = ("cdcl", "classic")
CLASSIC_BEST = "jw"  # the classic heuristic benchmarked as "classic" (see bench/README.md)


# ----------------------------------------------------------------------------- workers
# Each returns (status, conflicts or None, model or None) and calls clock() right
# before and right after the solve call (the first call also tells the parent "ready").

Solved = tuple[str, int | None, list[int] | None]


def _minisat22(formula: Formula, clock: Callable[[], None]) -> Solved:
    from pysat.solvers import Minisat22

    with Minisat22(bootstrap_with=formula.clauses) as s:
        clock()
        answer = s.solve()
        clock()
        return _status(answer), s.accum_stats()["conflicts"], s.get_model()


def _dpll2(formula: Formula, clock: Callable[[], None]) -> Solved:
    from sympy import Symbol
    from sympy.assumptions.cnf import EncodedCNF
    from sympy.logic.algorithms.dpll2 import dpll_satisfiable

    nvars = formula.nvars
    symbols = [Symbol(f"x{v}") for v in range(1, nvars + 1)]
    encoding = dict(zip(symbols, range(1, nvars + 1), strict=True))
    encoded = EncodedCNF([set(c) for c in formula.clauses], encoding)
    clock()
    model = dpll_satisfiable(encoded)
    clock()
    if model is False:
        return "UNSAT", None, None
    index = {sym: v for v, sym in enumerate(symbols, start=1)}
    return "SAT", None, [index[s] if value else -index[s] for s, value in model.items()]


def _simplesat(formula: Formula, clock: Callable[[], None]) -> Solved:
    from simplesat.errors import SatisfiabilityError
    from simplesat.sat.minisat import MiniSATSolver

    solver = MiniSATSolver()
    try:
        for clause in formula.clauses:
            solver.add_clause(sorted(set(clause)))
        solver._setup_assignments()
    except SatisfiabilityError:
        clock()
        clock()
        return "UNSAT", None, None
    clock()
    try:
        assignment = solver.search()
    except SatisfiabilityError:
        clock()
        return "UNSAT", None, None
    clock()
    return "SAT", None, [v if value else -v for v, value in assignment.items()]


def _cdclkit(formula: Formula, clock: Callable[[], None]) -> Solved:
    from cdclkit import Solver

    solver = Solver(formula.nvars)
    for clause in formula.clauses:
        solver.add_clause_dimacs(clause)
    clock()
    answer = solver.solve()
    clock()
    model = solver.model_dimacs() if answer else None
    return _status(answer), solver.stats.conflicts, model


def _ours(mode: str, heuristic: str | None) -> Callable[..., Solved]:
    def run(formula: Formula, clock: Callable[[], None]) -> Solved:
        from dpll import Solver

        with Solver(bootstrap_with=formula, mode=mode, heuristic=heuristic) as s:
            clock()
            answer = s.solve()
            clock()
            return _status(answer), s.accum_stats().get("conflicts"), s.get_model()

    return run


def _status(answer: bool | None) -> str:
    return {True: "SAT", False: "UNSAT", None: "UNKNOWN"}[answer]


def solver_function(name: str) -> Callable[..., Solved]:
    """The worker for a solver name (``classic:<heuristic>`` picks a classic heuristic)."""
    table: dict[str, Callable[..., Solved]] = {
        "minisat22": _minisat22,
        "dpll2": _dpll2,
        "simplesat": _simplesat,
        "cdclkit": _cdclkit,
        "cdcl": _ours("cdcl", None),
        "classic": _ours("classic", CLASSIC_BEST),
    }
    if name.startswith("classic:"):
        return _ours("classic", name.partition(":")[2])
    if name not in table:
        raise SystemExit(f"unknown solver {name!r}; known: {', '.join(table)}, classic:<heuristic>")
    return table[name]


def seed_list(text: str) -> list[int]:
    """``0-7`` or ``0,3,5`` (or a mix) as a list of seeds."""
    seeds: list[int] = []
    for part in text.split(","):
        low, dash, high = part.partition("-")
        seeds.extend(range(int(low), int(high) + 1) if dash else [int(low)])
    return seeds


def shuffled(formula: Formula, seed: int) -> Formula:
    """The formula with its variables renamed by a permutation and its clauses and their
    literals reordered, all drawn from ``seed`` (0: the formula itself)."""
    from formats.formula import Formula

    if not seed:
        return formula
    rng = random.Random(seed)
    names = list(range(1, formula.nvars + 1))
    rng.shuffle(names)
    rename = [0, *names]
    clauses = [[rename[lit] if lit > 0 else -rename[-lit] for lit in c] for c in formula.clauses]
    for clause in clauses:
        rng.shuffle(clause)
    rng.shuffle(clauses)
    return Formula(nvars=formula.nvars, clauses=clauses)


def worker(name: str, path: str, shuffle: str = "0") -> None:
    """Child process: parse, build, print 'ready', solve (timed), check, print a JSON line."""
    from formats.dimacs import read_dimacs

    formula = shuffled(read_dimacs(path), int(shuffle))
    marks: list[float] = []

    def clock() -> None:
        if not marks:
            print("ready", flush=True)
        marks.append(time.perf_counter())

    status, conflicts, model = solver_function(name)(formula, clock)
    solve_s = marks[1] - marks[0]
    model_ok = None
    if status == "SAT":
        true = set(model or ())
        model_ok = all(any(lit in true for lit in clause) for clause in formula.clauses)
    record = {"status": status, "solve_s": solve_s, "conflicts": conflicts, "model_ok": model_ok}
    print(json.dumps(record), flush=True)


# ------------------------------------------------------------------------------ driver


def instances(family: str, count: int) -> list[Path]:
    """The family's benchmark files: the first ``count`` in SATLIB's numbering."""
    folder, names, _ = FAMILIES[family]
    base = SATLIB / folder
    if names is not None:
        return [base / n for n in names[:count]]

    def number(path: Path) -> tuple[int, str]:
        match = re.search(r"-(\d+)\.cnf$", path.name)
        return (int(match.group(1)) if match else 0, path.name)

    return sorted(base.glob("*.cnf"), key=number)[:count]


def run_one(name: str, path: Path, cap: float, shuffle: int = 0) -> dict[str, Any]:
    """One solver on one instance (shuffled by seed ``shuffle``) in a fresh process,
    killed ``cap`` s after set-up."""
    started = time.perf_counter()
    record: dict[str, Any] = {"status": "ERROR", "solve_s": None, "conflicts": None}
    with tempfile.TemporaryFile(mode="w+") as errors:
        process = subprocess.Popen(
            [sys.executable, __file__, "--worker", name, str(path), str(shuffle)],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            cwd=ROOT,
        )
        # set-up (parsing, building) gets a generous allowance of its own
        setup = threading.Timer(max(600.0, 10 * cap), process.kill)
        setup.start()
        first = process.stdout.readline()
        setup.cancel()
        killer = threading.Timer(cap + 5, process.kill)  # +5: checking and printing
        killer.start()
        rest = process.stdout.read()  # the same buffered reader as the first line
        process.wait()
        killer.cancel()
        lines = rest.strip().splitlines()
        if first.strip() == "ready" and process.returncode == 0 and lines:
            record = json.loads(lines[-1])
            if record["solve_s"] > cap:
                record["status"] = "TIMEOUT"
        elif first.strip() == "ready" and process.returncode < 0:
            record["status"] = "TIMEOUT"
        else:
            errors.seek(0)
            record["error"] = errors.read().strip().splitlines()[-1:] or [
                f"exit {process.returncode}"
            ]
    record["process_s"] = time.perf_counter() - started
    return record


def median_time(records: list[dict[str, Any]]) -> float:
    """Median solve time, unsolved runs counted as infinitely slow."""
    times = [r["solve_s"] if r["solved"] else float("inf") for r in records]
    return statistics.median(times) if times else float("nan")


def total_time(records: list[dict[str, Any]], cap: float) -> tuple[float, bool]:
    """Total solve time with unsolved runs counted as the cap (and whether any was)."""
    capped = any(not r["solved"] for r in records)
    return sum(r["solve_s"] if r["solved"] else cap for r in records), capped


def fmt_time(seconds: float, cap: float) -> str:
    if seconds == float("inf"):
        return f">{cap:g}"
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def fmt_ratio(a: float, b: float) -> str:
    """a / b, readable; '—' when undefined."""
    if b in (0.0, float("inf")) or a != a or b != b:
        return "—"
    if a == float("inf"):
        return "∞"
    ratio = a / b
    return f"{ratio:.1f}×" if ratio >= 0.95 else f"{ratio:.2f}×"


def report(results: list[dict[str, Any]], solvers: list[str], cap: float) -> str:
    """Markdown tables: one per family, plus our solvers' speed-ups over each peer."""
    out = []
    for family in dict.fromkeys(r["family"] for r in results):
        rows = [r for r in results if r["family"] == family]
        n = len({r["instance"] for r in rows})
        out.append(f"### {family} ({n} instance{'s' if n != 1 else ''}, cap {cap:g} s)\n")
        out.append(
            "| solver | solved | median s | total s | × MiniSat (median) | conflicts/s "
            "| median process s |"
        )
        out.append("|---|---|---|---|---|---|---|")
        by_solver = {s: [r for r in rows if r["solver"] == s] for s in solvers}
        mini = median_time(by_solver.get("minisat22", []))
        for solver in solvers:
            mine = by_solver[solver]
            if not mine:
                continue
            solved = sum(r["solved"] for r in mine)
            wrong = sum(r["status"] == "WRONG" for r in mine)
            med = median_time(mine)
            total, capped = total_time(mine, cap)
            done = [r for r in mine if r["solved"] and r.get("conflicts") is not None]
            seconds = sum(r["solve_s"] for r in done)
            rate = f"{sum(r['conflicts'] for r in done) / seconds:,.0f}" if seconds > 0 else "—"
            process = statistics.median(r["process_s"] for r in mine)
            flag = f" ({wrong} WRONG)" if wrong else ""
            out.append(
                f"| {solver} | {solved}/{len(mine)}{flag} | {fmt_time(med, cap)} "
                f"| {'≥' if capped else ''}{total:.2f} | {fmt_ratio(med, mini)} | {rate} "
                f"| {process:.2f} |"
            )
        for ours in (s for s in solvers if s in OURS or s.startswith("classic:")):
            if not by_solver.get(ours):
                continue
            cells = []
            for peer in solvers:
                if peer == ours or not by_solver.get(peer):
                    continue
                t_ours, _ = total_time(by_solver[ours], cap)
                t_peer, capped = total_time(by_solver[peer], cap)
                speed = fmt_ratio(t_peer, t_ours)
                cells.append(f"{peer} {'≥' if capped and speed != '—' else ''}{speed}")
            out.append(f"\n{ours}: total-time speed-up over " + ", ".join(cells) + "\n")
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--families", default=",".join(FAMILIES), help="comma-separated (default: all)"
    )
    parser.add_argument(
        "--per-family",
        type=int,
        default=10,
        metavar="N",
        help="instances per family, the first N in SATLIB's numbering (default: 10)",
    )
    parser.add_argument(
        "--solvers",
        default=",".join((*PEERS, *OURS)),
        help="comma-separated: minisat22, dpll2, simplesat, cdclkit, cdcl, classic, "
        "classic:<heuristic> (default: all six; dpll2, simplesat and cdclkit need "
        "pip install -e '.[bench]')",
    )
    parser.add_argument(
        "--cap",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds a run may take after its solver is set up (default: 60)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write every run as JSON")
    parser.add_argument(
        "--shuffle",
        type=seed_list,
        default=[0],
        metavar="SEEDS",
        help="solve each instance once per seed (1-3, or 1,5), renamed and reordered by it",
    )
    parser.add_argument("--worker", nargs="+", metavar="ARG", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    if not SATLIB.is_dir():
        raise SystemExit(f"SATLIB instances not found at {SATLIB}")
    families = [f for f in args.families.split(",") if f]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        raise SystemExit(f"unknown families: {', '.join(unknown)}; known: {', '.join(FAMILIES)}")
    solvers = [s for s in args.solvers.split(",") if s]
    for name in solvers:
        solver_function(name)  # fail early on a typo
    missing = [name for name in solvers if name in NEEDS and not find_spec(NEEDS[name])]
    if missing:  # (else every run of theirs is an ERROR, counted as unsolved at the cap)
        wanted = ", ".join(f"{name} needs {NEEDS[name]}" for name in missing)
        raise SystemExit(
            f"{wanted}: pip install -e '.[bench]' (or leave them out with --solvers)"
        )
    results = []
    for family in families:
        expected = FAMILIES[family][2]
        for path, shuffle in itertools.product(instances(family, args.per_family), args.shuffle):
            for solver in solvers:
                record = run_one(solver, path, args.cap, shuffle)
                wrong = (record["status"] in ("SAT", "UNSAT") and record["status"] != expected) or (
                    record.get("model_ok") is False
                )
                if wrong:
                    record["status"] = "WRONG"
                record.update(
                    family=family,
                    instance=path.name + (f"#{shuffle}" if shuffle else ""),
                    solver=solver,
                    solved=record["status"] == expected,
                )
                results.append(record)
                shown = f"{record['solve_s']:.3f}s" if record["solve_s"] is not None else "-"
                if record.get("error"):
                    shown += f" ({record['error'][-1]})"
                print(
                    f"{family} {record['instance']} {solver}: {record['status']} {shown}",
                    file=sys.stderr,
                )
    print(f"python bench/solve.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"\nPython {sys.version.split()[0]}, {os.cpu_count()} CPUs; times in seconds\n")
    print(report(results, solvers, args.cap))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
