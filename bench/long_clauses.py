"""Time cdcl on formulas of long clauses falsified in numbering order (the watch-scan cost).

A clause's watches are its first two literals, and the engine sorts each clause; when
the search decides variables false in numbering order (``vsids-numbered``, or phases
given so), every decision falsifies a watch of every clause, and the look for a new
watch starts at position 2 unless the clause is on the circular path (`dpll.cdcl.HUGE`
literals or more): O(n²) reads per clause of n literals instead of O(n).

    python bench/long_clauses.py               # the engine's HUGE
    python bench/long_clauses.py --huge 256    # A/B against another threshold

Each formula is solved ``--repeat`` times in this process (lucky phases off, so that the
search itself does the descent); the median CPU time of the solve call is printed with
the conflict count. This is a benchmark, not a test; see bench/README.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def set_cover(clauses: int, length: int, nvars: int, pairs: int) -> list[list[int]]:
    """``clauses`` random all-positive clauses of ``length`` variables, plus ``pairs``
    random negative binary clauses (a set-cover-like formula; the binaries stop the
    lucky all-true scan)."""
    rng = random.Random(1)
    formula = [rng.sample(range(1, nvars + 1), length) for _ in range(clauses)]
    pair_rng = random.Random(7)
    for _ in range(pairs):
        a, b = pair_rng.sample(range(1, nvars + 1), 2)
        formula.append([-a, -b])
    return formula


def review_formula() -> list[list[int]]:
    """Review 23's reproducer: 3,000 clauses, each all 255 variables (in random order),
    plus ``-3 -4``."""
    return [random.Random(i).sample(range(1, 256), 255) for i in range(3000)] + [[-3, -4]]


NUMBERED = {"heuristic": "vsids-numbered"}
CASES = {
    "3000 x 255, vsids-numbered": (review_formula, NUMBERED),
    "set cover L=40, vsids-numbered": (lambda: set_cover(2000, 40, 300, 200), NUMBERED),
    "set cover L=120, vsids-numbered": (lambda: set_cover(2000, 120, 300, 200), NUMBERED),
    "set cover L=60, vsids": (lambda: set_cover(2000, 60, 300, 200), {}),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--huge", type=int, help="override dpll.cdcl.HUGE for this run")
    parser.add_argument("--repeat", type=int, default=3, help="solves per formula (default 3)")
    args = parser.parse_args()

    import dpll.cdcl
    from dpll import Solver

    if args.huge is not None:
        dpll.cdcl.HUGE = args.huge
    print(f"HUGE = {dpll.cdcl.HUGE}")
    for name, (make, options) in CASES.items():
        clauses = make()
        times = []
        for _ in range(args.repeat):
            with Solver(bootstrap_with=clauses, lucky=False, **options) as solver:
                start = time.process_time()
                answer = solver.solve()
                times.append(time.process_time() - start)
                conflicts = solver.accum_stats()["conflicts"]
        print(f"{name:34} {answer!s:5} {statistics.median(times):7.3f} s  {conflicts} conflicts")


if __name__ == "__main__":
    main()
