"""Tests for dpll.lucky: the fixed assignments tried before the CDCL search."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpll import Solver
from dpll.cdcl import CDCLEngine
from dpll.engine import Limits
from dpll.lucky import lucky
from formats.dimacs import read_dimacs


def satisfies(model: list[int], clauses: list[list[int]]) -> bool:
    true = set(model)
    return all(any(lit in true for lit in clause) for clause in clauses)


def engine_model(engine: CDCLEngine) -> list[int]:
    val = engine.val
    return [v if val[2 * v] == 1 else -v for v in range(1, engine.nvars + 1)]


def test_flat_graph_colourings_need_no_conflict(satlib: Path) -> None:
    """flat100's variables are numbered vertex by vertex: deciding them false in that
    order colours the graph greedily, which the search without the lucky phases misses."""
    for index in range(1, 11):
        formula = read_dimacs(satlib / "flat100" / f"flat100-{index}.cnf")
        with Solver(bootstrap_with=formula.clauses) as s:
            assert s.solve() is True
            assert satisfies(s.get_model(), formula.clauses)
            assert s.accum_stats()["conflicts"] == 0
    formula = read_dimacs(satlib / "flat100" / "flat100-1.cnf")
    with Solver(bootstrap_with=formula.clauses, lucky=False) as s:
        assert s.solve() is True and s.accum_stats()["conflicts"] > 0


@st.composite
def horn_formulas(draw: st.DrawFn) -> tuple[int, list[list[int]]]:
    """Random Horn clauses (at most one positive literal each), with some positive units."""
    n = draw(st.integers(1, 40))
    rng = random.Random(draw(st.integers(0, 2**32)))
    clauses = [[rng.randint(1, n)] for _ in range(rng.randint(0, 3))]
    for _ in range(draw(st.integers(0, 120))):
        size = rng.randint(1, 4)
        lits = [-rng.randint(1, n) for _ in range(size)]
        if rng.random() < 0.7:
            lits[0] = -lits[0]
        clauses.append(lits)
    return n, clauses


@settings(max_examples=200, deadline=None)
@given(horn_formulas())
def test_every_satisfiable_horn_formula_is_solved_by_the_first_attempt(formula) -> None:
    """Unit propagation refutes every unsatisfiable Horn formula, and deciding the other
    variables false never conflicts on a satisfiable one: the first attempt finds the
    least model."""
    n, clauses = formula
    engine = CDCLEngine(n, clauses)
    if not engine.ok or engine.propagate() is not None:
        with Solver(bootstrap_with=clauses) as s:
            assert s.solve() is False
        return
    assert lucky(engine) is True
    model = engine_model(engine)
    assert satisfies(model, clauses)
    assert engine.n_conflicts == 0


def test_a_failed_attempt_leaves_the_search_as_it_was(satlib: Path) -> None:
    """No phase saved, no variable pushed into the heap, nothing learnt: only the
    decisions and propagations are counted."""
    formula = read_dimacs(satlib / "uuf50" / "uuf50-01.cnf")
    engine = CDCLEngine(formula.nvars, formula.clauses)
    engine.start_from_occurrences()
    assert engine.propagate() is None
    state = [
        list(engine.phase), list(engine.target), list(engine.act), list(engine.heap),
        list(engine.inheap), engine.cursor, list(engine.trail), engine.qhead,
        len(engine.learnts), engine.n_conflicts,
    ]  # fmt: skip
    assert lucky(engine) is False
    assert not engine.trail_lim and not engine.stopped
    assert [
        engine.phase, engine.target, engine.act, engine.heap, engine.inheap, engine.cursor,
        engine.trail, engine.qhead, len(engine.learnts), engine.n_conflicts,
    ] == state  # fmt: skip
    assert engine.n_decisions >= 4  # at least one decision in each of the four attempts
    assert all(engine.val[2 * v] == 0 for v in range(1, formula.nvars + 1))


CLAUSES = [[1, 2, 3], [2, -4, 5], [2, 6, -7], [-6, -7]]  # all false satisfies them


def test_not_tried_under_assumptions_or_given_phases() -> None:
    """As in CaDiCaL: the assumptions, or the caller's phases, choose the model."""
    with Solver(bootstrap_with=CLAUSES) as s:
        assert s.solve() is True and s.get_model() == [1, -2, -3, -4, -5, -6, -7]
    with Solver(bootstrap_with=CLAUSES, lucky=False) as plain:
        expected = plain.solve(assumptions=[5]), plain.get_model(), plain.accum_stats()
    with Solver(bootstrap_with=CLAUSES) as s:
        assert (s.solve(assumptions=[5]), s.get_model(), s.accum_stats()) == expected
    for give in ("set_phases", "prefer_phases"):
        with Solver(bootstrap_with=CLAUSES, lucky=False) as plain:
            getattr(plain, give)([1, 4])
            expected = plain.solve(), plain.get_model(), plain.accum_stats()
        with Solver(bootstrap_with=CLAUSES) as s:
            getattr(s, give)([1, 4])
            assert (s.solve(), s.get_model(), s.accum_stats()) == expected
            assert s.get_model()[0] == 1 and s.get_model()[3] == 4


def test_only_before_the_first_search() -> None:
    """A later solve starts from what the search learnt (saved phases), not all over."""
    with Solver(bootstrap_with=CLAUSES) as s:
        assert s.solve() is True
        s.add_clause([-3])
        assert s.solve() is True
        decisions = s.accum_stats()["decisions"]
        assert s.solve() is True
        assert s.accum_stats()["decisions"] - decisions < 7


def test_a_budget_stops_an_attempt_and_the_solver_stays_usable() -> None:
    """An implication chain of 100,000 variables, with an all-positive and an all-negative
    clause so that neither scan applies: all false satisfies it, one decision at a time;
    the budget is polled at each decision, and runs out long before."""
    n = 100_000
    chain = [[-v, v + 1] for v in range(1, n)] + [[n - 1, n], [-1, -2]]
    with Solver(bootstrap_with=chain) as s:
        s.prop_budget(100)
        assert s.solve_limited() is None
        assert s.accum_stats()["propagations"] <= 101
        assert s.solve() is True
        assert satisfies(s.get_model(), chain)
    # an interrupt or deadline already given stops the engine before its first decision
    # (dpll.Solver answers a pending interrupt before the engine runs: test the engine)
    for limits in (Limits(interrupt=[True]), Limits(deadline=time.monotonic() - 1)):
        engine = CDCLEngine(n, chain)
        assert engine.solve([], limits) is None
        assert engine.n_decisions == 0 and not engine.trail_lim
        assert engine.solve([], Limits()) is True
        assert satisfies(engine.model(), chain)


@pytest.mark.parametrize("sign", [1, -1])
def test_one_sign_in_every_clause_is_a_scan_not_a_descent(sign: int) -> None:
    """Long clauses of one sign, sorted: deciding the other way first falsified their
    watches one by one, each move rescanning the false literals before it (seconds, with
    no poll of the budget; audit 23-A #1). Every clause holding a literal of one sign,
    the scan assigns them all that way at once: no propagation."""
    rng = random.Random(1)
    clauses = [[sign * v for v in rng.sample(range(1, 201), 200)] for _ in range(300)]
    clauses.append([-sign * 7, sign * 8])  # (binary clauses are scanned too)
    with Solver(bootstrap_with=clauses) as s:
        assert s.solve() is True
        assert satisfies(s.get_model(), clauses)
        assert s.get_model()[0] == sign
        assert s.accum_stats()["propagations"] == 0
    clauses.append([-sign * 3, -sign * 4])  # one clause without: the scan fails, at once
    with Solver(bootstrap_with=clauses) as s:
        assert s.solve() is True and satisfies(s.get_model(), clauses)


@pytest.mark.parametrize("give", ["set_phases", "prefer_phases"])
def test_enum_models_branches_with_the_phases_given(give: str) -> None:
    """enum_models solves a copy of the formula: it lost the phases, and so ran the lucky
    phases the solver itself skips (audit 23-A #2). PySAT's Minisat22 yields [1, 2, 3, -4]
    first here, with set_phases."""
    from pysat.solvers import Minisat22

    clauses = [[1, 2, 3], [-1, -4]]
    with Minisat22(bootstrap_with=clauses) as m:
        m.set_phases([1, 2, 3, -4])
        expected = next(iter(m.enum_models()))
    with Solver(bootstrap_with=clauses) as s:
        getattr(s, give)([1, 2, 3, -4])
        assert s.solve() is True and s.get_model() == expected == [1, 2, 3, -4]
        models = list(s.enum_models())
        assert models[0] == expected
        assert len(models) == len({tuple(m) for m in models}) == 10
