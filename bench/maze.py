"""Benchmark the maze front end, solvers and pipeline on generated mazes of 50 to 2,000 nodes.

For each size (nodes, treasures, K) one maze is generated with ``--planted``
(its treasures lie on a random walk of K moves, so it has a solution; random
treasures in a big sparse maze are almost never reachable in K moves) and
measured in one run:

- encode: both encodings written as the DP input to a temporary file — time,
  clauses, variables, megabytes, clauses per second;
- solve on the same clauses: our DPLL (``dpll.Solver``, CDCL, with the options
  ``maze.pipeline.DPLL_OPTIONS`` that ``satkit maze solve`` uses) and MiniSat 2.2
  (PySAT), timed from building the solver to its answer, with conflicts; an
  encoding above ``--max-solve-clauses`` is not solved (the assignment encoding
  of a 1,000-node maze has 15.5 million clauses);
- search: the layered reference search (no SAT);
- pipeline: ``maze.pipeline.solve_maze`` (encode, solve, decode, validate) with
  the compact encoding, ours and MiniSat, and — for ``--cli-sizes`` — the whole
  ``satkit maze solve --encoding compact`` command in a fresh process.

Timings are medians over ``--repeat`` interleaved rounds (ours, MiniSat,
MiniSat, ours, …). Every answer is checked (paths validated, SAT expected).

    python bench/maze.py                       # 50, 200, 1000, 2000 nodes
    python bench/maze.py --sizes 50,200 --repeat 1
    python bench/maze.py --json maze-bench.json

This is a benchmark, not a test: run it on a quiet machine. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dpll import Solver  # noqa: E402
from maze.cnf import encode  # noqa: E402
from maze.generator import generate_maze  # noqa: E402
from maze.model import Maze  # noqa: E402
from maze.pipeline import DPLL_OPTIONS, solve_maze  # noqa: E402
from maze.search import find_walk  # noqa: E402
from maze.validator import path_problems  # noqa: E402
from maze.writer import maze_text  # noqa: E402

# nodes -> (treasures, K): the range, 5-12 treasures and K 10-40
SIZES = {50: (5, 10), 200: (8, 20), 1000: (10, 30), 2000: (12, 40)}


def _minisat(clauses: list[list[int]]) -> Any:
    from pysat.solvers import Minisat22

    return Minisat22(bootstrap_with=clauses)


def _ours(clauses: list[list[int]]) -> Any:
    return Solver(bootstrap_with=clauses, **DPLL_OPTIONS)  # as `satkit maze solve` does


FACTORIES: dict[str, Callable[[list[list[int]]], Any]] = {"dpll": _ours, "minisat22": _minisat}


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def measure_encode(maze: Maze, encoding: str, folder: str) -> dict[str, Any]:
    """Write the DP input once; time, size and speed."""
    cnf = encode(maze, encoding)
    target = os.path.join(folder, f"{encoding}.txt")
    started = time.perf_counter()
    with open(target, "w", encoding="utf-8") as handle:
        cnf.write_dp_input(handle)
    seconds = time.perf_counter() - started
    size = os.path.getsize(target)
    os.remove(target)
    return {
        "clauses": cnf.clause_count,
        "variables": cnf.nvars,
        "megabytes": size / 1e6,
        "encode_seconds": seconds,
        "clauses_per_second": cnf.clause_count / seconds if seconds else float("inf"),
    }


def solve_once(name: str, clauses: list[list[int]], cap: float) -> dict[str, Any]:
    """Build the solver and solve, under a deadline; time, verdict, conflicts."""
    started = time.perf_counter()
    solver = FACTORIES[name](clauses)
    timer = threading.Timer(cap, solver.interrupt)
    timer.start()
    try:
        verdict = solver.solve_limited(expect_interrupt=True)
    finally:
        timer.cancel()
    seconds = time.perf_counter() - started
    stats = solver.accum_stats() or {}
    model = solver.get_model() if verdict else None
    solver.delete()
    if verdict:
        true = set(model)
        if not all(any(lit in true for lit in clause) for clause in clauses):
            raise AssertionError(f"{name}: the model breaks a clause")
    return {"seconds": seconds, "verdict": verdict, "conflicts": stats.get("conflicts")}


def measure_solvers(maze: Maze, encoding: str, repeat: int, cap: float) -> dict[str, Any]:
    """Both solvers on the same clause list, interleaved rounds."""
    clauses = encode(maze, encoding).clause_list()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in FACTORIES}
    order = list(FACTORIES)
    for round_number in range(repeat):
        for name in order if round_number % 2 == 0 else reversed(order):
            runs[name].append(solve_once(name, clauses, cap))
    out: dict[str, Any] = {}
    for name, results in runs.items():
        verdicts = {r["verdict"] for r in results}
        out[name] = {
            "seconds": _median([r["seconds"] for r in results]),
            "verdict": verdicts.pop() if len(verdicts) == 1 else "mixed",
            "conflicts": results[-1]["conflicts"],
        }
    return out


def measure_pipeline(maze: Maze, repeat: int) -> dict[str, Any]:
    """solve_maze with the compact encoding, ours and MiniSat, interleaved; paths validated."""
    times: dict[str, list[float]] = {name: [] for name in FACTORIES}
    order = list(FACTORIES)
    for round_number in range(repeat):
        for name in order if round_number % 2 == 0 else reversed(order):
            started = time.perf_counter()
            answer = solve_maze(maze, FACTORIES[name], encoding="compact")
            times[name].append(time.perf_counter() - started)
            if answer.path is None or path_problems(maze, answer.path):
                raise AssertionError(f"{name}: no valid path for a planted maze")
    return {name: _median(values) for name, values in times.items()}


def measure_cli(maze: Maze, repeat: int, folder: str) -> dict[str, Any]:
    """`satkit maze solve --encoding compact` in a fresh process (interpreter start included)."""
    path = os.path.join(folder, "maze.txt")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(maze_text(maze))
    times: dict[str, list[float]] = {name: [] for name in FACTORIES}
    order = list(FACTORIES)
    for round_number in range(repeat):
        for name in order if round_number % 2 == 0 else reversed(order):
            command = [sys.executable, "-m", "satkit", "maze", "solve", path]
            command += ["--encoding", "compact", "--solver", name]
            started = time.perf_counter()
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
            times[name].append(time.perf_counter() - started)
            if done.returncode != 10:
                raise AssertionError(f"satkit maze solve --solver {name}: {done.stderr.strip()}")
    return {name: _median(values) for name, values in times.items()}


def run(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {
        "python": sys.version.split()[0],
        "load_average": os.getloadavg(),
        "sizes": [],
    }
    for nodes in args.sizes:
        treasures, steps = SIZES[nodes]
        maze = generate_maze(nodes, treasures, steps, seed=args.seed, planted=True)
        row: dict[str, Any] = {"nodes": nodes, "treasures": treasures, "steps": steps}
        _say(f"{nodes} nodes, {treasures} treasures, K={steps}")
        with tempfile.TemporaryDirectory() as folder:
            for encoding in ("assignment", "compact"):
                sizes = [measure_encode(maze, encoding, folder) for _ in range(args.repeat)]
                entry = dict(sizes[0])
                entry["encode_seconds"] = _median([s["encode_seconds"] for s in sizes])
                entry["clauses_per_second"] = entry["clauses"] / entry["encode_seconds"]
                if entry["clauses"] <= args.max_solve_clauses:
                    entry["solve"] = measure_solvers(maze, encoding, args.repeat, args.cap)
                row[encoding] = entry
                _say(f"  {encoding}: {_brief(entry)}")
            started = time.perf_counter()
            walk = find_walk(maze)
            row["search_seconds"] = time.perf_counter() - started
            row["search_found"] = walk is not None
            row["pipeline"] = measure_pipeline(maze, args.repeat)
            _say(f"  search {row['search_seconds']:.3f} s; pipeline {row['pipeline']}")
            if nodes in args.cli_sizes:
                row["cli"] = measure_cli(maze, args.repeat, folder)
                _say(f"  satkit maze solve: {row['cli']}")
        report["sizes"].append(row)
    report["load_average_after"] = os.getloadavg()
    return report


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _brief(entry: dict[str, Any]) -> str:
    text = f"{entry['clauses']:,} clauses, {entry['encode_seconds']:.3f} s"
    for name, result in entry.get("solve", {}).items():
        text += f"; {name} {result['seconds']:.3f} s ({result['verdict']})"
    return text


def _seconds(value: float | None) -> str:
    return "–" if value is None or value != value else f"{value:.3f}"


def tables(report: dict[str, Any]) -> str:
    """The report as Markdown tables (the form bench/README.md shows)."""
    lines = [
        "| nodes | treasures | K | encoding | clauses | variables | MB | encode s | clauses/s |"
        " dpll solve s (conflicts) | MiniSat solve s (conflicts) | dpll / MiniSat |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report["sizes"]:
        for encoding in ("assignment", "compact"):
            e = row[encoding]
            solve = e.get("solve")
            ours = theirs = ratio = "not solved"
            if solve:
                a, b = solve["dpll"], solve["minisat22"]
                ours = f"{_seconds(a['seconds'])} ({a['conflicts']})" + _flag(a["verdict"])
                theirs = f"{_seconds(b['seconds'])} ({b['conflicts']})" + _flag(b["verdict"])
                ratio = f"{a['seconds'] / b['seconds']:.1f}x"
            lines.append(
                f"| {row['nodes']:,} | {row['treasures']} | {row['steps']} | {encoding} |"
                f" {e['clauses']:,} | {e['variables']:,} | {e['megabytes']:.1f} |"
                f" {_seconds(e['encode_seconds'])} | {e['clauses_per_second'] / 1e6:.2f} M |"
                f" {ours} | {theirs} | {ratio} |"
            )
    lines += [
        "",
        "| nodes | compact / assignment clauses | search s | pipeline dpll s | pipeline MiniSat s |"
        " ratio | `satkit maze solve` dpll s | MiniSat s | ratio |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report["sizes"]:
        fewer = row["assignment"]["clauses"] / row["compact"]["clauses"]
        p = row["pipeline"]
        cli = row.get("cli")
        cli_cells = "– | – | –"
        if cli:
            cli_cells = (
                f"{_seconds(cli['dpll'])} | {_seconds(cli['minisat22'])} |"
                f" {cli['dpll'] / cli['minisat22']:.1f}x"
            )
        lines.append(
            f"| {row['nodes']:,} | 1/{fewer:.0f} | {_seconds(row['search_seconds'])} |"
            f" {_seconds(p['dpll'])} | {_seconds(p['minisat22'])} |"
            f" {p['dpll'] / p['minisat22']:.1f}x | {cli_cells} |"
        )
    return "\n".join(lines)


def _flag(verdict: Any) -> str:
    return "" if verdict is True else f" [{verdict}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(x) for x in text.split(",")],
        default=list(SIZES),
        help=f"node counts among {sorted(SIZES)} (default: all)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="rounds per timing (median)")
    parser.add_argument("--seed", type=int, default=1, help="maze seed (default 1)")
    parser.add_argument("--cap", type=float, default=300.0, help="seconds per solve (default 300)")
    parser.add_argument(
        "--max-solve-clauses",
        type=int,
        default=1_000_000,
        help="solve an encoding only up to this many clauses (default 1,000,000)",
    )
    parser.add_argument(
        "--cli-sizes",
        type=lambda text: [int(x) for x in text.split(",") if x],
        default=[1000],
        help="sizes timed through `satkit maze solve` too (default 1000; '' for none)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the raw figures as JSON")
    args = parser.parse_args(argv)
    unknown = [n for n in args.sizes if n not in SIZES]
    if unknown:
        parser.error(f"unknown size {unknown[0]}; choose among {sorted(SIZES)}")
    report = run(args)
    print(tables(report))
    print(f"\nload average before/after: {report['load_average']} / {report['load_average_after']}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
