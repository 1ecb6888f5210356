"""Judge a change to cdcl's search by its effect over many seeds, not one seed's luck.

A change to the search (watch order, heuristics, reduction schedule) changes which
conflicts are met, so on one seed its effect is mostly luck: hole6-8 take 1.9-5.9 s
depending on the seed. This solves each family's benchmark instances (those of
bench/solve.py) once per seed, in this process, timed around the solve call, and
reports per family the median over seeds of the total time and of the conflicts.

    python bench/seeds.py --families uuf100,pigeonhole                # seeds 0-7
    python bench/seeds.py --families uf250 --seeds 0-3 --option first_reduce=2000
    git worktree add /tmp/old HEAD~1 && python bench/seeds.py --tree /tmp/old

``--tree`` imports dpll and formats from another checkout (an A/B against an older
commit: run both, one after the other, on a quiet machine). ``--option`` passes an
engine option to ``dpll.Solver``. This is a benchmark, not a test; see bench/README.md.
"""

from __future__ import annotations

import argparse
import ast
import statistics
import sys
import time
from pathlib import Path

from solve import seed_list  # bench/solve.py (which imports no project module at the top)


def engine_option(text: str) -> tuple[str, object]:
    """``name=value`` with a Python literal value (``first_reduce=2000``)."""
    name, equals, value = text.partition("=")
    if not equals:
        raise argparse.ArgumentTypeError(f"expected name=value, got {text!r}")
    return name, ast.literal_eval(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--families",
        default="uuf100,pigeonhole",
        help="comma-separated (default: uuf100,pigeonhole)",
    )
    parser.add_argument(
        "--seeds",
        type=seed_list,
        default=seed_list("0-7"),
        help="solver seeds: 0-7 or 0,3,5 or a mix (default: 0-7)",
    )
    parser.add_argument("--tree", type=Path, help="import dpll and formats from this checkout")
    parser.add_argument(
        "--option",
        type=engine_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an engine option for dpll.Solver, a Python literal (first_reduce=2000); repeatable",
    )
    args = parser.parse_args()
    if args.tree is not None:
        sys.path.insert(0, str(args.tree.resolve()))

    from solve import FAMILIES, instances  # bench/solve.py: the same instances

    from dpll import Solver
    from formats.dimacs import read_dimacs

    options = dict(args.option)
    for family in args.families.split(","):
        if family not in FAMILIES:
            raise SystemExit(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")
        formulas = [read_dimacs(path) for path in instances(family, 10)]
        totals, conflicts = [], []
        for seed in args.seeds:
            total, count = 0.0, 0
            for formula in formulas:
                with Solver(bootstrap_with=formula, seed=seed, **options) as solver:
                    started = time.perf_counter()
                    solver.solve()
                    total += time.perf_counter() - started
                    count += solver.accum_stats()["conflicts"]
            totals.append(total)
            conflicts.append(count)
        rate = sum(conflicts) / sum(totals) if sum(totals) else 0.0
        runs = " ".join(f"{t:.2f}/{c}" for t, c in zip(totals, conflicts, strict=True))
        print(
            f"{family}: median total {statistics.median(totals):.3f} s, "
            f"median conflicts {statistics.median(conflicts):.0f}, {rate:,.0f} conflicts/s "
            f"| per seed s/conflicts: {runs}",
            flush=True,
        )


if __name__ == "__main__":
    main()
