"""Tests for dpll.cdcl: the CDCL engine against PySAT's MiniSat, budgets, cores, big inputs."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysat.solvers import Minisat22

from dpll import Solver
from dpll.cdcl import CDCLEngine, luby
from dpll.engine import STAT_KEYS, Limits
from formats.dimacs import read_dimacs

SATLIB = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "satlib"


def minisat(clauses: list[list[int]], assumptions: list[int] = ()) -> bool:
    with Minisat22(bootstrap_with=clauses) as m:
        return m.solve(assumptions=list(assumptions))


def satisfies(model: list[int], clauses: list[list[int]]) -> bool:
    true = set(model)
    return all(any(lit in true for lit in clause) for clause in clauses)


@st.composite
def random_3sat(draw: st.DrawFn) -> tuple[int, list[list[int]]]:
    """Uniform random 3-SAT near the threshold (m/n around 4.26)."""
    n = draw(st.integers(10, 80))
    ratio = draw(st.floats(3.8, 4.8))
    rng = random.Random(draw(st.integers(0, 2**32)))  # much faster than st.randoms()
    clauses = []
    for _ in range(round(n * ratio)):
        variables = rng.sample(range(1, n + 1), 3)
        clauses.append([v if rng.random() < 0.5 else -v for v in variables])
    return n, clauses


@st.composite
def mixed_cnf(draw: st.DrawFn) -> tuple[int, list[list[int]]]:
    """Small CNFs with clauses of length 0..6 (empty clause, units, repeats, tautologies)."""
    n = draw(st.integers(1, 25))
    lit = st.integers(1, n).flatmap(lambda v: st.sampled_from([v, -v]))
    clauses = draw(st.lists(st.lists(lit, min_size=0, max_size=6), max_size=90))
    # the empty clause is rare in real inputs: keep it in about one case in ten
    if draw(st.integers(0, 9)) > 0:
        clauses = [c for c in clauses if c] or [[1]]
    return n, clauses


def solve(engine: CDCLEngine, assumptions: list[int] = (), **limits: object) -> bool | None:
    return engine.solve(list(assumptions), Limits(**limits))


def test_luby_sequence() -> None:
    assert [int(luby(2, i)) for i in range(15)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_3sat())
def test_random_3sat_agrees_with_minisat(case: tuple[int, list[list[int]]]) -> None:
    n, clauses = case
    engine = CDCLEngine(n, clauses)
    result = solve(engine)
    assert result == minisat(clauses)
    if result:
        model = engine.model()
        assert [abs(lit) for lit in model] == list(range(1, n + 1))
        assert satisfies(model, clauses)


@settings(max_examples=150, deadline=None)
@given(mixed_cnf(), st.sampled_from(["luby", "glucose"]), st.integers(0, 3), st.booleans())
def test_mixed_cnf_agrees_with_minisat(
    case: tuple[int, list[list[int]]], restarts: str, seed: int, busy: bool
) -> None:
    n, clauses = case
    # busy: restart, reduce and walk (rephase) every few conflicts
    options = {"luby_unit": 2, "walk_min_conflicts": 0, "walk_patience": 10**6} if busy else {}
    engine = CDCLEngine(
        n, clauses, restarts=restarts, seed=seed, first_reduce=20, reduce_inc=5, **options
    )
    result = solve(engine)
    assert result == minisat(clauses)
    if result:
        assert satisfies(engine.model(), clauses)
    else:
        assert engine.core() == []


@settings(max_examples=100, deadline=None)
@given(random_3sat(), st.integers(0, 2**32))
def test_assumptions_and_cores(case: tuple[int, list[list[int]]], seed: int) -> None:
    n, clauses = case
    rng = random.Random(seed)
    engine = CDCLEngine(n, clauses)
    for _ in range(3):  # several calls on one engine: incremental use
        assumptions = [rng.choice([1, -1]) * rng.randint(1, n) for _ in range(rng.randint(0, 8))]
        result = solve(engine, assumptions)
        assert result == minisat(clauses, assumptions)
        if result:
            model = set(engine.model())
            assert set(assumptions) <= model
            assert satisfies(list(model), clauses)
        else:
            core = engine.core()
            assert set(core) <= set(assumptions)
            assert not minisat(clauses, core)


def test_contradictory_assumptions_give_both_in_the_core() -> None:
    engine = CDCLEngine(3, [[1, 2, 3]])
    assert solve(engine, [2, -1, 1]) is False
    assert sorted(engine.core()) == [-1, 1]
    assert solve(engine, [2, 2]) is True  # repeated assumption: an empty level, no harm


def test_many_repeated_assumptions_open_more_levels_than_variables() -> None:
    clauses = pigeonhole(4)  # 20 variables, needs conflicts at levels above 60
    engine = CDCLEngine(0, clauses)
    assert solve(engine, [20] * 60) is False
    assert set(engine.core()) <= {20}


def test_assumption_false_at_top_level_is_the_whole_core() -> None:
    engine = CDCLEngine(2, [[-1], [1, 2]])
    assert solve(engine, [2, 1]) is False
    assert engine.core() == [1]


def test_incremental_clauses_and_new_variables() -> None:
    engine = CDCLEngine(2, [[1, 2]])
    assert solve(engine) is True
    engine.add_clause([-1])
    engine.add_clause([-2, 5])  # variable 5 is new
    assert solve(engine) is True
    assert engine.model() == [-1, 2, 3, 4, 5] or engine.model()[:2] == [-1, 2]
    assert len(engine.model()) == 5
    engine.add_clause([-5])
    assert solve(engine) is False
    engine.add_clause([3])  # adding to an UNSAT engine keeps it UNSAT
    assert solve(engine) is False


def test_empty_formula_and_empty_clause() -> None:
    empty = CDCLEngine(0, [])
    assert solve(empty) is True
    assert empty.model() == []
    contradiction = CDCLEngine(2, [[1, 2], []])
    assert solve(contradiction) is False
    assert solve(contradiction, [1]) is False
    assert contradiction.core() == []


def test_tautologies_duplicates_and_units() -> None:
    engine = CDCLEngine(3, [[1, -1, 2], [2, 2, 2], [-2, 3, 3]])
    assert solve(engine) is True
    assert engine.model()[1:] == [2, 3]


def test_ternary_clauses_load_like_longer_ones() -> None:
    # three-literal clauses have their own loading path; it must leave the engine as the
    # general one does: literals sorted by code, the first two watched, and every
    # irregular clause (top-level values, duplicates, tautologies, new variables)
    # simplified the same way
    clauses = [[1], [1, 2, 3], [-1, 2, 3], [2, -2, 3], [4, 4, 5], [-7, 5, 6], [3, 4, 9]]
    engine = CDCLEngine(7, clauses)
    padded = CDCLEngine(7, [[*c, c[-1]] if len(c) == 3 else c for c in clauses])
    for e in (engine, padded):
        assert e.nvars == 9
        assert e.clauses == [[10, 12, 15], [6, 8, 18]]
        assert sorted(e.equivalent_clauses()) == sorted(
            [[1], [2, 3], [4, 5], [5, 6, -7], [3, 4, 9]]
        )
    assert [
        [(b, list(c)) for b, c in ws] if ws else ws for ws in engine.watches
    ] == [[(b, list(c)) for b, c in ws] if ws else ws for ws in padded.watches]


def test_invalid_options() -> None:
    with pytest.raises(ValueError, match="restart"):
        CDCLEngine(1, [], restarts="never")
    with pytest.raises(ValueError, match="var_decay"):
        CDCLEngine(1, [], var_decay=1.5)


def pigeonhole(holes: int) -> list[list[int]]:
    """PHP(holes+1, holes): unsatisfiable, and hard for resolution."""
    pigeons = holes + 1

    def var(p: int, h: int) -> int:
        return p * holes + h + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
    for h in range(holes):
        for p in range(pigeons):
            for q in range(p + 1, pigeons):
                clauses.append([-var(p, h), -var(q, h)])
    return clauses


def test_conflict_budget_stops_and_solver_stays_usable() -> None:
    clauses = pigeonhole(7)
    engine = CDCLEngine(0, clauses)
    assert solve(engine, conflicts=50) is None
    assert engine.stats()["conflicts"] == 50
    assert solve(engine, conflicts=50) is None  # the budget counts from each call
    assert engine.stats()["conflicts"] == 100
    small = CDCLEngine(0, pigeonhole(4))
    assert solve(small, conflicts=0 or None) is False


def test_propagation_budget_deadline_and_interrupt_stop() -> None:
    clauses = pigeonhole(7)
    engine = CDCLEngine(0, clauses)
    assert solve(engine, propagations=500) is None
    assert solve(engine, deadline=0.0) is None  # a deadline long past
    assert solve(engine, interrupt=[True]) is None
    # after all that the engine still answers correctly
    engine.add_clause([1])
    assert solve(engine, [2], conflicts=10) is None
    easy = CDCLEngine(0, pigeonhole(3))
    assert solve(easy, interrupt=[False]) is False


def test_interrupt_stops_a_conflict_free_run() -> None:
    # 20,000 free variables and no clauses: only decisions, never a conflict
    engine = CDCLEngine(20000, [])
    assert solve(engine, interrupt=[True]) is None
    assert solve(engine) is True


def test_a_million_variables_without_recursion() -> None:
    n = 1_000_000
    chain = [[-i, i + 1] for i in range(1, n)]  # x1 -> x2 -> ... -> xn
    chain.append([-n, -1])  # ... and xn -> not x1
    engine = CDCLEngine(n, chain)
    # a pending interrupt stops even this single million-literal propagation early
    assert solve(engine, [1], interrupt=[True]) is None
    assert engine.stats()["propagations"] < n // 10
    # assuming x1 runs the whole chain into a conflict at level 1; the analysis walks
    # back a million-literal trail, learns "not x1", and the final analysis blames x1
    assert solve(engine, [1]) is False
    assert engine.core() == [1]
    assert engine.stats()["learned"] == 1
    assert solve(engine, [n]) is True
    model = engine.model()
    assert len(model) == n
    assert model[0] == -1 and model[-1] == n


def test_deterministic_answers_and_statistics() -> None:
    rng = random.Random(7)
    clauses = [[rng.choice([1, -1]) * rng.randint(1, 60) for _ in range(3)] for _ in range(250)]
    for seed in (0, 5):
        runs = []
        for _ in range(2):
            engine = CDCLEngine(60, clauses, seed=seed)
            result = solve(engine)
            runs.append((result, engine.model(), engine.core(), engine.stats()))
        assert runs[0] == runs[1]
    stats = runs[0][3]
    assert set(STAT_KEYS) <= set(stats)


def test_learned_clause_deletion_keeps_answers_right() -> None:
    # tiny reduce interval: many deletions and watch-list rebuilds
    clauses = pigeonhole(5)
    engine = CDCLEngine(0, clauses, first_reduce=10, reduce_inc=2)
    assert solve(engine) is False
    assert engine.stats()["conflicts"] > 100


def satlib_files(family: str) -> list[Path]:
    folder = SATLIB / family
    if not folder.is_dir():
        pytest.skip(f"SATLIB family {family} not found at {folder} (../shared beside the checkout)")
    return sorted(folder.glob("*.cnf"))


@pytest.mark.parametrize(
    ("family", "expected"),
    [("uf20", True), ("uf50", True), ("uuf50", False), ("flat30", True)],
)
def test_satlib_families(family: str, expected: bool) -> None:
    files = satlib_files(family)
    assert len(files) >= 10
    for path in files:
        formula = read_dimacs(path)
        engine = CDCLEngine(formula.nvars, formula.clauses)
        assert solve(engine) is expected, path.name
        if expected:
            assert satisfies(engine.model(), formula.clauses), path.name


def test_without_occurrence_start_unbumped_variables_go_lowest_first_and_false() -> None:
    # no conflict ever happens, so every decision comes from the zero-activity cursor
    # (without the lucky phases, whose scan would make all three true at once)
    with Solver(bootstrap_with=[[1, 2, 3]], occurrence_start=False, lucky=False) as s:
        assert s.solve() is True
        assert s.get_model() == [-1, -2, 3]
        s.add_clause([5, 6, 4])  # new variables join the cursor's range
        assert s.solve() is True
        assert s.get_model() == [-1, -2, 3, -4, -5, 6]
        assert s.solve(assumptions=[-3]) is True  # backjumps hand variables back to it
        assert s.get_model() == [-1, 2, -3, -4, -5, 6]


def test_first_decisions_follow_occurrences_and_majority_polarity() -> None:
    """No conflict: the model shows the start. Variable 2 (three occurrences) is decided
    first, true, and satisfies everything; the rest take their more frequent polarity,
    and a variable as often negated as not (6) keeps the default, false. (Without the
    lucky phases, whose first attempt, all false, would satisfy these clauses.)"""
    clauses = [[1, 2, 3], [2, -4, 5], [2, 6, -7], [-6, -7]]
    with Solver(bootstrap_with=clauses, lucky=False) as s:
        assert s.solve() is True
        assert s.get_model() == [1, 2, 3, -4, 5, -6, -7]
        assert s.accum_stats()["decisions"] == 7
    with Solver(bootstrap_with=clauses) as s:
        s.set_phases([-2, 4])  # the user's phases win over the counts
        assert s.solve() is True
        assert s.get_model()[1] == -2 and s.get_model()[3] == 4


def test_occurrence_start_cuts_conflicts_on_random_3sat(satlib: Path) -> None:
    """Why it is the default: on uuf50-01..-20 (seed 0) 767 conflicts in all against
    1,068 with the variable numbering, fewer on 15 of the 20 files (deterministic)."""
    totals = {True: 0, False: 0}
    for index in range(1, 21):
        formula = read_dimacs(satlib / "uuf50" / f"uuf50-0{index}.cnf")
        for start in totals:
            engine = CDCLEngine(formula.nvars, formula.clauses, occurrence_start=start)
            assert solve(engine) is False
            totals[start] += engine.n_conflicts
    assert totals[True] * 4 < totals[False] * 3  # at least a quarter fewer


def test_vsids_numbered_is_the_numbering_start_by_name() -> None:
    """``heuristic="vsids-numbered"`` (``satkit solve --heuristic vsids-numbered``,
    ``dpll:cdcl/vsids-numbered``) is the engine's ``occurrence_start=False``."""
    clauses = [[1, 2, 3], [2, -4, 5], [2, 6, -7], [-6, -7]]
    with Solver(bootstrap_with=clauses, heuristic="vsids-numbered", lucky=False) as s:
        assert s.solve() is True
        assert s.get_model() == [-1, -2, 3, -4, -5, -6, -7]
    with Solver(bootstrap_with=clauses, heuristic="vsids", lucky=False) as s:
        assert s.solve() is True
        assert s.get_model() == [1, 2, 3, -4, 5, -6, -7]


# -- clauses of HUGE literals or more: their own watch lists, circular search ------------


@settings(max_examples=120, deadline=None)
@given(mixed_cnf(), st.integers(0, 3), st.booleans())
def test_huge_clause_watching_agrees_with_minisat(
    case: tuple[int, list[list[int]]], seed: int, busy: bool
) -> None:
    # HUGE lowered to 4: every input clause of 4+ literals takes the circular path
    # (ternary clauses keep their own loading path; learnt clauses the usual one)
    n, clauses = case
    options = {"luby_unit": 2, "walk_min_conflicts": 0, "walk_patience": 10**6} if busy else {}
    with huge_at(4):
        engine = CDCLEngine(n, clauses, seed=seed, first_reduce=20, reduce_inc=5, **options)
        result = solve(engine)
    watched = [c for ws in engine.watches if ws for _, c in ws]
    assert all(len(c) == 3 or c in engine.learnts for c in watched)
    huge = [c for ws in engine.huge_watches if ws for _, c in ws]
    assert all(len(c) >= 4 and c in engine.clauses for c in huge)
    assert result == minisat(clauses)
    if result:
        assert satisfies(engine.model(), clauses)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_3sat(), st.integers(0, 2**32))
def test_huge_clause_watching_with_assumptions_and_cores(
    case: tuple[int, list[list[int]]], seed: int
) -> None:
    n, clauses = case
    rng = random.Random(seed)
    assumptions = [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), 5)]
    with huge_at(4):  # the long clause, and every learnt-from-it step, on both paths
        engine = CDCLEngine(n, [*clauses, list(range(1, n + 1))], first_reduce=30, reduce_inc=5)
        result = solve(engine, assumptions)
    expected = minisat([*clauses, list(range(1, n + 1))], assumptions)
    assert result == expected
    if not expected:
        assert set(engine.core()) <= set(assumptions)
        assert not minisat([*clauses, list(range(1, n + 1))], engine.core())


@contextlib.contextmanager
def huge_at(length: int) -> Iterator[None]:
    """Clauses of ``length`` literals or more take the huge-clause path meanwhile."""
    import dpll.cdcl as cdcl

    saved = cdcl.HUGE
    cdcl.HUGE = length
    try:
        yield
    finally:
        cdcl.HUGE = saved


@pytest.mark.parametrize(("n", "copies"), [(2000, 1), (20000, 1), (100, 200), (40, 500)])
def test_a_clause_falsified_literal_by_literal_is_scanned_in_linear_time(
    n: int, copies: int
) -> None:
    # `1 2 … n 0` (``copies`` times) and `-1 … -n 0`: decided false one variable after
    # another, the first clauses' watches move n times; scanning from position 2 each time
    # read ~n²/2 literals (80,000 literals: 108 s, audit 15-D #4; 3,000 clauses of 255
    # literals under vsids-numbered: 3.5 s, review 23). Counted, not timed: every literal
    # read by the circular search goes through the `val` list, so count those reads.
    clauses = [*[list(range(1, n + 1))] * copies, [-v for v in range(1, n + 1)]]
    engine = CDCLEngine(n, clauses, occurrence_start=False, lucky=False)
    reads = 0

    class CountingList(list):
        def __getitem__(self, index):
            nonlocal reads
            reads += 1
            return super().__getitem__(index)

    engine.val = CountingList(engine.val)
    assert solve(engine) is True
    assert satisfies(engine.model(), clauses)
    assert reads < 40 * n * copies // min(copies, 4)  # linear (quadratic: n * n / 2 a copy)


def test_top_level_simplification_is_rationed_by_propagations() -> None:
    # MiniSat's simpDB_props: after a simplification the next waits until the search has
    # propagated as many literals as the clauses hold (run at every new top-level fact,
    # it took 46% of logistics.a's solve time)
    engine = CDCLEngine(6, [[1, 2, 3], [-1, 4, 5], [2, 5, 6], [-2, -4, 6]])
    engine.simplify()
    assert len(engine.clauses) == 4
    assert engine.simp_props == engine.n_propagations + 12  # 4 clauses of 3 literals
    engine.add_clause([1])  # a new top-level fact satisfies the first clause
    engine.simplify()
    variables = lambda: sorted(sorted(lit >> 1 for lit in c) for c in engine.clauses)  # noqa: E731
    assert [1, 2, 3] in variables()  # not yet
    engine.n_propagations = engine.simp_props
    engine.simplify()
    assert variables() == [[1, 4, 5], [2, 4, 6], [2, 5, 6]]
    assert solve(engine) is True
    assert satisfies(engine.model(), [[1, 2, 3], [-1, 4, 5], [2, 5, 6], [-2, -4, 6], [1]])
