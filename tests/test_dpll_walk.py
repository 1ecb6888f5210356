"""Tests for dpll.walk (probSAT) and the CDCL engine's walk rephasing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Minisat22

from dpll.cdcl import CDCLEngine
from dpll.engine import Limits
from dpll.walk import probsat


def codes(clauses: list[list[int]]) -> list[list[int]]:
    return [[2 * lit if lit > 0 else -2 * lit + 1 for lit in c] for c in clauses]


def unsatisfied(clauses: list[list[int]], assign: list[int]) -> int:
    return sum(not any(assign[lit >> 1] == lit & 1 for lit in c) for c in clauses)


def planted_3sat(n: int, m: int, seed: int) -> list[list[int]]:
    """Random 3-SAT with a hidden model (every clause keeps one literal of it true)."""
    rng = random.Random(seed)
    hidden = [rng.choice([1, -1]) for _ in range(n + 1)]
    clauses = []
    while len(clauses) < m:
        clause = [v * rng.choice([1, -1]) for v in rng.sample(range(1, n + 1), 3)]
        if any(lit * hidden[abs(lit)] > 0 for lit in clause):
            clauses.append(clause)
    return clauses


def test_probsat_finds_a_planted_model() -> None:
    clauses = codes(planted_3sat(200, 800, 1))
    start = [1] * 201
    best, unsat = probsat(clauses, start, random.Random(3), 200_000)
    assert unsat == 0
    assert unsatisfied(clauses, best) == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 25), st.integers(0, 2**32), st.integers(0, 3000))
def test_best_count_is_exact_and_never_below_the_truth(n: int, seed: int, flips: int) -> None:
    rng = random.Random(seed)
    clauses = [
        [rng.choice([1, -1]) * rng.randint(1, n) for _ in range(rng.randint(1, 3))]
        for _ in range(rng.randint(1, 6 * n))
    ]
    start = [rng.getrandbits(1) for _ in range(n + 1)]
    best, unsat = probsat(codes(clauses), start[:], random.Random(seed), flips)
    assert unsatisfied(codes(clauses), best) == unsat
    assert unsat <= unsatisfied(codes(clauses), start)
    with Minisat22(bootstrap_with=clauses) as m:
        if not m.solve():
            assert unsat >= 1  # an unsatisfiable formula has no model to walk to


def test_stop_and_determinism() -> None:
    rng = random.Random(2)
    dense = [[rng.choice([1, -1]) * v for v in rng.sample(range(1, 61), 3)] for _ in range(400)]
    calls = []

    def stop() -> bool:
        calls.append(1)
        return True

    _, unsat = probsat(codes(dense), [0] * 61, random.Random(5), 100_000, stop)
    assert unsat > 0  # ratio 6.7: unsatisfiable, so only the stop can end the walk early
    assert calls == [1]  # asked once, after the first 1024 flips, and obeyed
    clauses = codes(planted_3sat(150, 640, 2))
    runs = [probsat(clauses, [0] * 151, random.Random(9), 5000) for _ in range(2)]
    assert runs[0] == runs[1]


def test_engine_walks_only_after_enough_conflicts_and_gives_up() -> None:
    clauses = planted_3sat(120, 510, 4)
    easy = CDCLEngine(0, clauses, walk_min_conflicts=10**9)
    assert easy.solve([], Limits()) is True
    assert easy.n_walks == 0
    eager = CDCLEngine(0, clauses, walk_min_conflicts=0, luby_unit=1)
    assert eager.solve([], Limits()) is True
    model = set(eager.model())
    assert all(any(lit in model for lit in c) for c in clauses)
    # on an unsatisfiable formula the walks stop improving and are given up
    rng = random.Random(8)
    unsat = [[rng.choice([1, -1]) * v for v in rng.sample(range(1, 61), 3)] for _ in range(420)]
    engine = CDCLEngine(0, unsat, walk_min_conflicts=0, luby_unit=1, walk_patience=2)
    assert engine.solve([], Limits()) is False
    assert engine.walk_fails == 2
    assert engine.n_walks <= engine.n_restarts


def test_walking_keeps_answers_deterministic_with_a_seed() -> None:
    clauses = planted_3sat(150, 630, 6)
    runs = []
    for _ in range(2):
        engine = CDCLEngine(0, clauses, seed=4, walk_min_conflicts=0, luby_unit=2)
        runs.append((engine.solve([], Limits()), engine.model(), engine.stats(), engine.n_flips))
    assert runs[0] == runs[1]
