"""Tests for dpll.Solver: the PySAT-shaped surface, incremental use, budgets, interrupts."""

from __future__ import annotations

import itertools
import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.formula import CNF
from pysat.solvers import Minisat22
from pysat.solvers import Solver as PySATSolver

from dpll import Solver
from dpll.engine import STAT_KEYS
from dpll.solver import MODES, PYSAT_NAMES, TooManyVariables
from formats.formula import Formula


def pigeonhole(holes: int) -> list[list[int]]:
    """PHP(holes+1, holes): unsatisfiable, and slow for any resolution-based solver."""

    def var(p: int, h: int) -> int:
        return p * holes + h + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p, q in itertools.combinations(range(holes + 1), 2):
            clauses.append([-var(p, h), -var(q, h)])
    return clauses


def brute_force_models(nvars: int, clauses: list[list[int]]) -> list[list[int]]:
    models = []
    for bits in itertools.product([False, True], repeat=nvars):
        model = [v if bits[v - 1] else -v for v in range(1, nvars + 1)]
        true = set(model)
        if all(any(lit in true for lit in clause) for clause in clauses):
            models.append(model)
    return models


def exercise(solver_class: type, **options: object) -> list[object]:
    """The same script, written against the PySAT API, for either implementation."""
    out: list[object] = []
    with solver_class(bootstrap_with=[[-1, 2], [-2, 3]], **options) as s:
        out.append(s.solve(assumptions=[1, -3]))
        out.append(sorted(s.get_core()))
        out.append(s.get_model())
        s.add_clause([-3, 4])
        out.append(s.solve(assumptions=[1]))
        out.append(s.get_model())
        out.append(s.get_core())
        s.append_formula([[-4, 5], [-5]])
        out.append(s.solve(assumptions=[1]))
        out.append(s.get_core())
        out.append(s.solve())
        out.append(s.get_status())
        out.append(s.nof_vars())
        out.append(sorted(s.accum_stats()) >= sorted(("conflicts", "decisions")))
        s.add_clause([1])  # now unsatisfiable without any assumption: no core
        out.append(s.solve(assumptions=[2]))
        out.append(s.get_core())
    with solver_class(bootstrap_with=[[1, 2], [-1, 2], [1, -2], [-1, -2]], **options) as s:
        out.append((s.solve(), s.get_core(), s.solve(assumptions=[3]), s.get_core()))
    return out


@pytest.mark.parametrize("mode", ["cdcl", "classic"])
def test_same_script_same_results_as_pysat_minisat(mode: str) -> None:
    assert exercise(Solver, mode=mode) == exercise(Minisat22)


def test_nof_clauses_counts_clauses_as_added() -> None:
    # PySAT's MiniSat reports its simplified internal store; we report what was added
    with Solver(bootstrap_with=[[1], [1, 2], [-1, 1], [2, 2]]) as s:
        assert s.nof_clauses() == 4
        s.solve()
        assert s.nof_clauses() == 4


def test_pysat_docstring_examples() -> None:
    s = Solver()
    s.add_clause([-1, 2])
    s.add_clause([-1, -2])
    s.add_clause([1, -2])
    assert s.solve() is True
    assert s.get_model() == [-1, -2]
    s.delete()
    m = Solver()
    m.add_clause([-1, 2])
    m.add_clause([-2, 3])
    m.add_clause([-3, 4])
    assert m.solve(assumptions=[1, 2, 3, -4]) is False
    assert sorted(m.get_core()) == [-4, 1]
    assert m.get_model() is None
    assert Solver(bootstrap_with=[[-1, 2], [-1, -2]]).add_clause([1], no_return=False) is False


def test_model_and_core_only_after_the_matching_answer() -> None:
    s = Solver(bootstrap_with=[[1, 2]])
    assert s.get_status() is None and s.get_model() is None and s.get_core() is None
    assert s.solve() is True
    assert s.get_core() is None
    assert s.solve(assumptions=[-1, -2]) is False
    assert s.get_model() is None
    assert sorted(s.get_core()) == [-2, -1]


def test_bootstrap_from_a_pysat_cnf_and_a_formats_formula() -> None:
    cnf = CNF(from_clauses=[[1, -2], [2, 3]])
    cnf.nv = 5  # PySAT's solvers do not take nv (its formula objects raise it for their
    # auxiliary variables, which then appeared in models: audit 18-D #2)
    with Solver(bootstrap_with=cnf) as s, PySATSolver(bootstrap_with=cnf) as theirs:
        assert s.solve() is True and theirs.solve() is True
        assert [abs(lit) for lit in s.get_model()] == [1, 2, 3]
        assert [abs(lit) for lit in theirs.get_model()] == [1, 2, 3]
        assert s.nof_vars() == theirs.nof_vars() == 3
    formula = Formula(nvars=4, clauses=[[1], [-1, 2]])
    with Solver(bootstrap_with=formula) as s:
        assert s.nof_vars() == 4 and s.nof_clauses() == 2
        assert s.solve() is True
        assert s.get_model()[:2] == [1, 2]
    with Solver(bootstrap_with=(c for c in [(1, 2), (-1,)])) as s:  # any iterables
        assert s.solve() and s.get_model() == [-1, 2]


def test_empty_formula_is_sat_and_empty_clause_is_unsat() -> None:
    with Solver() as s:
        assert s.solve() is True
        assert s.get_model() == []
        assert s.nof_vars() == 0
        assert s.solve(assumptions=[3]) is True  # an assumption makes its variable known
        assert s.get_model() == [-1, -2, 3] or s.get_model()[-1] == 3
    with Solver(bootstrap_with=[[1, 2], []]) as s:
        assert s.solve() is False
        assert s.get_core() is None  # as PySAT's: no assumption was needed
        assert s.solve(assumptions=[1]) is False
        assert s.get_core() is None
        assert s.add_clause([3], no_return=False) is False


def test_bad_literals_are_rejected() -> None:
    s = Solver()
    with pytest.raises(ValueError, match="not 0"):
        s.add_clause([1, 0, 2])
    with pytest.raises(TypeError, match="non-zero int"):
        s.add_clause([1, "2"])
    with pytest.raises(TypeError, match="non-zero int"):
        s.add_clause([True])
    with pytest.raises(TypeError, match="non-zero int"):
        s.add_clause([1.0])
    with pytest.raises(ValueError, match="assumption"):
        s.solve(assumptions=[0])
    with pytest.raises(TypeError):
        s.solve(assumptions=["1"])
    assert s.nof_clauses() == 0  # nothing half-added


@pytest.mark.parametrize(
    ("clauses", "error", "match"),
    [
        ([[1, 2], [3, 0]], ValueError, "not 0"),
        ([[1, 2], [True]], TypeError, "not True"),
        ([[1], [-2.0]], TypeError, "not -2.0"),
        ([["1"]], TypeError, "non-zero int"),
    ],
)
def test_bad_literals_in_a_bulk_load_are_rejected(
    clauses: list[list[object]], error: type[Exception], match: str
) -> None:
    s = Solver()
    with pytest.raises(error, match=match):
        s.append_formula(clauses)
    with pytest.raises(error, match=match):
        Solver(bootstrap_with=clauses)
    assert s.nof_clauses() == 0 and s.nof_vars() == 0  # nothing half-added


def test_a_bulk_load_takes_empty_clauses_and_int_like_literals() -> None:
    s = Solver(bootstrap_with=[[], [3, -1]])
    assert (s.nof_vars(), s.nof_clauses(), s.solve()) == (3, 2, False)
    numpy = pytest.importorskip("numpy")
    with Solver(bootstrap_with=[[numpy.int64(2), numpy.int32(-1)]]) as s:
        assert s.solve() is True and s.nof_vars() == 2


@pytest.mark.parametrize("mode", MODES)
def test_a_bulk_load_keeps_none_of_the_callers_clauses(mode: str) -> None:
    # lists and tuples are loaded without a copy, so the engines must copy them
    clauses: list = [[1, 2, 3], (-1, 2), [-2, 3, 4, 5], [-3], (-4, -5, 1)]
    kept = [list(c) for c in clauses]
    with Solver(bootstrap_with=clauses, mode=mode) as s:
        for clause in clauses:
            if isinstance(clause, list):
                clause[:] = [-lit for lit in clause]
        assert clauses[0] == [-1, -2, -3]  # the caller's lists are theirs to change
        assert s.solve() is True
        model = set(s.get_model())
        assert all(model & set(c) for c in kept)
        assert s.nof_clauses() == 5
    generated = Solver(bootstrap_with=(iter(c) for c in kept), mode=mode)
    assert generated.solve() is True and generated.nof_clauses() == 5


def test_bad_names_modes_and_heuristics() -> None:
    with pytest.raises(ValueError, match="unknown solver name"):
        Solver(name="minisat2")
    import dpll  # code written for PySAT catches NoSuchSolverError, imported beside Solver

    with pytest.raises(dpll.NoSuchSolverError, match="unknown solver name"):
        dpll.Solver("foo")
    with pytest.raises(ValueError, match="unknown mode"):
        Solver(mode="fast")
    with pytest.raises(ValueError, match="unknown heuristic"):
        Solver(heuristic="jw")  # a classic heuristic, not a cdcl one
    with pytest.raises(ValueError, match="restart"):
        Solver(restarts="sometimes")
    assert Solver(name="cdcl").mode == "cdcl"
    assert Solver(heuristic="vsids").solve() is True


def test_incremental_use_with_growing_variables() -> None:
    with Solver(bootstrap_with=[[1, 2]]) as s:
        assert s.solve() is True and len(s.get_model()) == 2
        s.add_clause([-1, 7])
        assert s.nof_vars() == 7
        assert s.solve(assumptions=[1]) is True
        assert s.get_model()[0] == 1 and s.get_model()[6] == 7
        assert len(s.get_model()) == 7
        s.add_clause([-7])
        assert s.solve(assumptions=[1]) is False and s.get_core() == [1]
        assert s.solve() is True and s.get_model()[:2] == [-1, 2]


def test_budgets_return_none_and_leave_the_solver_usable() -> None:
    with Solver(bootstrap_with=pigeonhole(8)) as s:
        s.conf_budget(30)
        assert s.solve_limited() is None
        assert s.get_status() is None and s.get_model() is None
        assert s.accum_stats()["conflicts"] == 30
        s.conf_budget(-1)
        s.prop_budget(200)
        assert s.solve_limited() is None
        s.prop_budget(0)
        s.time_budget(1e-9)  # a deadline that has passed before the first poll
        assert s.solve_limited() is None
        s.time_budget(None)
        s.conf_budget(20)
        # the solver still works: an easy question about the same formula
        assert s.solve_limited(assumptions=[1, 9]) is False  # pigeons 0 and 1 in hole 0
        assert sorted(s.get_core()) == [1, 9]


def test_interrupt_from_another_thread_and_clear() -> None:
    with Solver(bootstrap_with=pigeonhole(10)) as s:  # far beyond reach: must be stopped
        started = threading.Event()
        original = s._live().solve

        def solve_and_signal(*args: object) -> object:
            started.set()
            return original(*args)

        s._live().solve = solve_and_signal  # type: ignore[method-assign]
        timer = threading.Thread(target=lambda: started.wait() and s.interrupt())
        timer.start()
        assert s.solve_limited(expect_interrupt=True) is None
        timer.join()
        assert s.solve_limited() is None  # the flag stays set until cleared
        s.clear_interrupt()
        s.conf_budget(10)
        assert s.solve_limited() is None  # now stopped by the budget, not the flag
        assert s.solve(assumptions=[1, 11]) is False  # pigeon 0 and 1 both in hole 0


def test_interrupt_does_not_affect_complete_solve() -> None:
    with Solver(bootstrap_with=pigeonhole(4)) as s:
        s.interrupt()
        assert s.solve() is False


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.lists(
                    st.integers(1, n).map(lambda v: v).flatmap(lambda v: st.sampled_from([v, -v])),
                    min_size=1,
                    max_size=3,
                ),
                max_size=10,
            ),
        )
    ),
    st.lists(st.integers(-6, 6).filter(bool), max_size=2),
)
@pytest.mark.parametrize(
    ("mode", "heuristic"), [("cdcl", None), ("classic", "course"), ("classic", "jw")]
)
def test_enum_models_lists_every_model_and_leaves_the_formula(
    mode: str, heuristic: str | None, case: tuple[int, list[list[int]]], assumptions: list[int]
) -> None:
    """Also when clauses came in two batches with a solve between (top-level facts are
    learnt then, and the copy enum_models searches is made from what the engine kept)."""
    n, clauses = case
    half = len(clauses) // 2
    with Solver(bootstrap_with=clauses[:half], mode=mode, heuristic=heuristic) as s:
        s.solve()
        s.append_formula(clauses[half:])
        s.add_clause([n, -n])  # make every variable 1..n known
        before = s.solve()
        nof = s.nof_clauses()
        assumed = [a for a in assumptions if abs(a) <= n]
        models = list(s.enum_models(assumptions=assumed))
        expected = [m for m in brute_force_models(n, clauses) if set(assumed) <= set(m)]
        assert sorted(models) == sorted(expected)
        assert len({tuple(m) for m in models}) == len(models)
        assert s.nof_clauses() == nof
        assert s.solve() is before  # PySAT's would now be UNSAT


def test_enum_models_of_the_empty_formula() -> None:
    with Solver() as s:
        assert list(s.enum_models()) == [[]]
        assert list(Solver(bootstrap_with=[[]]).enum_models()) == []


def test_accum_stats_accumulate_over_calls() -> None:
    with Solver(bootstrap_with=pigeonhole(5)) as s:
        assert set(STAT_KEYS) <= set(s.accum_stats())
        s.conf_budget(10)
        s.solve_limited()
        first = s.accum_stats()
        s.conf_budget(10)  # a budget counts from when it is set (as in PySAT)
        s.solve_limited()
        second = s.accum_stats()
        assert second["conflicts"] == first["conflicts"] + 10
        assert second["decisions"] > first["decisions"]


def test_same_input_and_seed_same_answer_model_and_statistics() -> None:
    rng = random.Random(3)
    clauses = [[rng.choice([1, -1]) * rng.randint(1, 70) for _ in range(3)] for _ in range(290)]
    for seed in (0, 11):
        runs = []
        for _ in range(2):
            with Solver(bootstrap_with=clauses, seed=seed) as s:
                runs.append((s.solve(), s.get_model(), s.accum_stats()))
        assert runs[0] == runs[1]


def test_delete_and_context_manager() -> None:
    with Solver(bootstrap_with=[[1]], use_timer=True) as s:
        assert s.solve() is True
        assert s.time() >= 0.0 and s.time_accum() >= s.time()
    assert s.get_model() == [1]  # results stay readable
    assert s.accum_stats()["decisions"] == 0
    with pytest.raises(RuntimeError, match="deleted"):
        s.solve()
    with pytest.raises(RuntimeError, match="deleted"):
        s.add_clause([2])
    s.delete()  # twice is harmless
    assert Solver().time() == 0.0  # without use_timer


def test_proof_accessors() -> None:
    assert Solver().get_proof() is None
    assert Solver().get_proof_binary() is None
    with Solver(bootstrap_with=pigeonhole(3), with_proof=True) as s:
        assert s.solve() is False
        lines = s.get_proof()
        assert lines[-1] == "0"
        assert s.get_proof_binary().endswith(b"a\x00")  # the empty clause, binary


def test_classic_mode_through_the_facade() -> None:
    clauses = pigeonhole(3)
    with Solver(bootstrap_with=clauses, mode="classic") as s:
        assert s.solve() is False
        assert "splits" in s.accum_stats()
    with Solver(bootstrap_with=[[1, 2], [-1, 2]], mode="classic", heuristic="jw") as s:
        assert s.solve() is True and 2 in s.get_model()
    with pytest.raises(ValueError, match="unknown heuristic"):
        Solver(mode="classic", heuristic="vsids")


# ------------------------------------------------------- swapping with pysat.solvers.Solver
# Each test runs the same code on PySAT's MiniSat and on ours and compares (found by an
# audit that swapped the imports).


def test_every_pysat_solver_name_is_accepted_and_means_cdcl() -> None:
    from pysat.solvers import SolverNames

    groups = [group for key, group in vars(SolverNames).items() if not key.startswith("_")]
    names = {name for group in groups for name in group}
    assert names <= PYSAT_NAMES
    for name in ("m22", "g4", "cadical195", "minisat22"):
        with Solver(name, [[1, 2], [-1]], True) as s:  # PySAT's positional order
            assert s.mode == "cdcl" and s.solve() and s.get_model() == [-1, 2]
            assert s.time() > 0
    with Solver(name="g3", incr=True, warm_start=True) as s:  # options PySAT passes on
        assert s.solve() is True
    assert Solver("classic").mode == "classic"


def test_atmost_constraints_are_refused_not_dropped() -> None:
    from pysat.formula import CNFPlus
    from pysat.solvers import Minisat22

    formula = CNFPlus()
    formula.extend([[1], [2]])
    formula.append([[1, 2, 3], 1], is_atmost=True)
    with pytest.raises(NotImplementedError):
        Minisat22(bootstrap_with=formula)
    with pytest.raises(NotImplementedError, match="AtMost"):
        Solver(bootstrap_with=formula)
    s = Solver(bootstrap_with=[[1, 2]])
    assert s.supports_atmost() is False
    with pytest.raises(NotImplementedError, match="AtMost"):
        s.add_atmost([1, 2, 3], 1)
    assert s.nof_clauses() == 1


def _both(code) -> tuple[object, object]:
    from pysat.solvers import Solver as PySATSolver

    with PySATSolver(name="m22") as theirs, Solver() as ours:
        return code(theirs), code(ours)


def test_budgets_behave_as_in_pysat_across_calls() -> None:
    """A budget counts from when it is set and is used up across calls; solve() clears it."""

    def run(s):
        s.append_formula(_pigeonhole(7))
        s.conf_budget(20)
        first = s.solve_limited()
        second = s.solve_limited()  # the budget is spent: unknown at once
        complete = s.solve()  # switches the budget off
        third = s.solve_limited()  # no budget any more
        return first, second, complete, third

    assert _both(run) == ((None, None, False, False), (None, None, False, False))


def _pigeonhole(holes: int) -> list[list[int]]:
    def var(p: int, h: int) -> int:
        return p * holes + h + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p in range(holes + 1):
            for q in range(p + 1, holes + 1):
                clauses.append([-var(p, h), -var(q, h)])
    return clauses


def test_an_interrupt_made_before_solve_limited_stops_it_at_once() -> None:
    def run(s):
        s.append_formula([[1, 2], [-1, 3]])
        s.interrupt()
        first = s.solve_limited(expect_interrupt=True)
        s.clear_interrupt()
        return first, s.solve_limited(expect_interrupt=True)

    theirs, ours = _both(run)
    assert theirs == ours == (None, True)


def test_a_clause_that_refutes_the_formula_updates_status_and_model() -> None:
    def run(s):
        s.append_formula([[1, 2]])
        before = (s.solve(), s.get_status())
        added = s.add_clause([-1], no_return=False), s.add_clause([-2], no_return=False)
        return before, added, s.get_status(), s.get_model()

    theirs, ours = _both(run)
    assert theirs == ours == ((True, True), (True, False), False, None)


def test_propagate_matches_pysat_on_random_formulas() -> None:
    """Unit propagation's closure is unique: the same status, and the same literals when
    no conflict arises; the formula and later answers are unaffected."""
    from pysat.solvers import Minisat22

    rng = random.Random(11)
    for _ in range(200):
        nvars = rng.randint(3, 12)
        clauses = [
            [rng.choice((-1, 1)) * rng.randint(1, nvars) for _ in range(rng.randint(1, 3))]
            for _ in range(rng.randint(2, 25))
        ]
        assumptions = list(
            dict.fromkeys(rng.choice((-1, 1)) * rng.randint(1, nvars) for _ in range(3))
        )
        with Minisat22(bootstrap_with=clauses) as theirs, Solver(bootstrap_with=clauses) as ours:
            expected, got = theirs.propagate(assumptions), ours.propagate(assumptions)
            assert got[0] == expected[0], (clauses, assumptions)
            if expected[0]:
                assert sorted(got[1]) == sorted(expected[1]), (clauses, assumptions)
            assert ours.solve() == theirs.solve()


def test_set_phases_steers_the_first_model() -> None:
    with Solver(bootstrap_with=[[1, 2, 3]]) as s:
        s.set_phases([1, -2, 3])
        assert s.solve() and s.get_model() == [1, -2, 3]
        s.set_phases([-1, -2, 3])
        assert s.solve() and s.get_model() == [-1, -2, 3]
    with Solver(mode="classic") as s, pytest.raises(NotImplementedError):
        s.set_phases([1])


@pytest.mark.parametrize("mode", ["cdcl", "classic"])
def test_a_variable_beyond_2_31_is_refused_and_leaves_the_solver_as_it_was(mode):
    solver = Solver(mode, bootstrap_with=[[1, 2]])
    for bad in ([3, 2**31], [-(2**31)]):
        with pytest.raises(ValueError, match="largest variable number 2147483647"):
            solver.add_clause(bad)
    with pytest.raises(ValueError, match="largest variable number"):
        solver.append_formula([[1], [2**40]])
    assert (solver.nof_vars(), solver.solve(), len(solver.get_model())) == (2, True, 2)


@pytest.mark.parametrize("mode", ["cdcl", "classic"])
def test_variables_that_cannot_be_allocated_leave_the_solver_as_it_was(mode, monkeypatch):
    # where `ulimit -v` would stop the engine's arrays half-grown, the probe fails first
    import dpll.solver

    solver = Solver(mode, bootstrap_with=[[1, 2]])
    monkeypatch.setattr(dpll.solver, "_VARIABLE_BYTES", 1 << 50)  # no machine has that
    with pytest.raises(MemoryError, match="3 variables need about"):
        solver.add_clause([3])
    assert (solver.nof_vars(), solver.solve(), len(solver.get_model())) == (2, True, 2)


# --- audit 14-C: what a user swapping PySAT's Solver for ours tripped over ----------------


def _random_3sat(seed: int, n: int = 60, m: int = 250) -> list[list[int]]:
    rng = random.Random(seed)
    return [[rng.choice([-1, 1]) * v for v in rng.sample(range(1, n + 1), 3)] for _ in range(m)]


@pytest.mark.parametrize(("mode", "step"), [("cdcl", "analyze"), ("classic", "backtrack")])
def test_ctrl_c_stops_at_a_safe_point_and_the_solver_answers_again(
    mode: str, step: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a KeyboardInterrupt raised in the middle of propagation used to leave a clause half
    # rewritten: the next solve() said False for a satisfiable formula, or crashed
    import signal

    clauses = pigeonhole(6)
    s = Solver(bootstrap_with=clauses, mode=mode)
    engine = s._engine if mode == "cdcl" else s._engine._search  # (classic: its search)
    original = getattr(engine, step)
    calls, finished = [0], [0]

    def ctrl_c_on_the_tenth(*args: object) -> object:
        calls[0] += 1
        if calls[0] == 10:
            signal.raise_signal(signal.SIGINT)  # as Ctrl-C: Python's handler runs now
        result = original(*args)
        finished[0] += 1
        return result

    monkeypatch.setattr(engine, step, ctrl_c_on_the_tenth)
    with pytest.raises(KeyboardInterrupt):
        s.solve()
    assert s.get_status() is None and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert finished[0] >= 10  # the step it came in was finished, and the search left
    assert not engine.trail_lim  # at a safe point, back at level 0
    monkeypatch.setattr(engine, step, original)
    assert s.solve() is False  # the same formula, still whole
    s.add_clause([-1])
    with Minisat22(bootstrap_with=[*clauses, [-1]]) as reference:
        assert s.solve() is reference.solve()
    sat = Solver(bootstrap_with=_random_3sat(3), mode=mode)
    assert sat.solve_limited() is True and sat.get_status() is True


def test_an_exception_in_the_middle_of_a_step_leaves_the_solver_refusing_to_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (SIGTERM in the CLI, or a handler of the user's own, raises where the engine is)
    s = Solver(bootstrap_with=pigeonhole(5))

    def stopped(*args: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(s._engine, "analyze", stopped)
    with pytest.raises(KeyboardInterrupt):
        s.solve()
    for use in (s.solve, lambda: s.add_clause([1]), lambda: s.append_formula([[2]])):
        with pytest.raises(RuntimeError, match="KeyboardInterrupt stopped it in the middle"):
            use()


def test_pysat_non_clausal_formulas_are_clausified_whole() -> None:
    # their `clauses` attribute holds only the top node's clauses: XOr lost its constraint
    # and an unsatisfiable And came out satisfiable with the model []
    from pysat.formula import And, Atom, Implies, Neg, Or, XOr
    from pysat.formula import Formula as PySATFormula
    from pysat.solvers import Solver as PySATSolver

    PySATFormula.cleanup()
    x, y, z = Atom("x"), Atom("y"), Atom("z")
    unsat = And(Or(x, y), Neg(x), Implies(y, z), Neg(z))
    assert Solver(name="m22", bootstrap_with=unsat).solve() is False
    PySATFormula.cleanup()
    formula = XOr(Atom(1), Atom(2), Atom(3))
    with PySATSolver(bootstrap_with=formula) as reference:
        expected = sorted(map(tuple, reference.enum_models()))
    PySATFormula.cleanup()
    formula = XOr(Atom(1), Atom(2), Atom(3))
    with Solver(bootstrap_with=formula) as ours:
        assert sorted(map(tuple, ours.enum_models())) == expected
    PySATFormula.cleanup()
    appended = Solver()
    appended.append_formula(And(Atom("a"), Neg(Atom("a"))))
    assert appended.solve() is False
    PySATFormula.cleanup()


def test_enum_models_sees_clauses_added_while_it_runs() -> None:
    # blocking each model on the variables of interest: the models yielded afterwards must
    # satisfy those clauses (42 of 49 did not), and the projections must not repeat
    with Solver(bootstrap_with=[[1, 2, 3], [4, 5, 6]]) as s:
        added: list[list[int]] = []
        projections = []
        for model in s.enum_models():
            true = set(model)
            assert all(true & set(clause) for clause in added)
            projections.append(tuple(model[:3]))
            added.append([-lit for lit in model[:3]])
            s.add_clause(added[-1])
            s.append_formula([added[-1]])  # (the batch path forwards them too)
        assert len(projections) == len(set(projections)) == 7
        assert s.solve() is False


def test_pysat_keywords_names_and_methods_are_taken() -> None:
    for name in ("Glucose4", "MiniSat22", "CaDiCaL195", "CDCL"):
        assert Solver(name, bootstrap_with=[[1, 2]]).solve() is True
    assert Solver("cadical195", [[1]], native_card=True, sync_with=None).solve() is True
    typo = r"^Solver\(\) got an unexpected keyword argument 'bootstrapwith'$"
    with pytest.raises(TypeError, match=typo):
        Solver(name="m22", bootstrapwith=[[1]])
    assert Solver(first_reduce=500).solve() is True  # the engine's own options still go through
    s = Solver(bootstrap_with=[[1], [-1, 2]])
    with pytest.raises(NotImplementedError, match="limit on decisions"):
        s.dec_budget(500)
    s.start_mode(warm=True)
    s.configure({"phase": 0})
    s.new("g3", [[-2]])  # a live solver is kept as it is (PySAT's new)
    assert s.solve() is True and s.get_model() == [1, 2]
    s.delete()
    s.new("g3", [[-2]])
    assert s.solve() is True and s.get_model() == [-1, -2]  # (variables 1..2, as in PySAT)


def test_out_of_memory_in_a_with_block_frees_the_engine_without_touching_it():
    # `dp --mode cdcl` out of memory crashed (SIGSEGV) gathering statistics on the way out
    solver = Solver(bootstrap_with=[[1, 2], [-1]])

    def no_stats():
        raise AssertionError("statistics asked of an engine that ran out of memory")

    solver._engine.stats = no_stats
    try:
        with solver:
            raise MemoryError
    except MemoryError:
        pass
    assert solver._engine is None
    with pytest.raises(RuntimeError, match="deleted"):
        solver.solve()


def test_enum_models_makes_the_variables_of_its_assumptions_known() -> None:
    # as solve(assumptions=…) and PySAT's enum_models do (audit 16-A)
    with Solver(bootstrap_with=[[1, 2]]) as s, Minisat22(bootstrap_with=[[1, 2]]) as m:
        ours = list(s.enum_models(assumptions=[5]))
        theirs = list(m.enum_models(assumptions=[5]))
        assert len(ours) == len(theirs) == 12  # (1 or 2) x 3, 4 free, 5 true
        assert {len(model) for model in ours} == {5}
        assert s.nof_vars() == m.nof_vars() == 5
        with pytest.raises(ValueError, match="non-zero"):
            list(s.enum_models(assumptions=[0]))


def test_a_proof_file_that_cannot_take_the_proof_is_refused_at_construction(tmp_path) -> None:
    # not at the first lemma, with Python's own error and a spoilt solver (audit 16-A)
    with pytest.raises(TypeError, match="proof_file must be an open file"):
        Solver(proof_file=str(tmp_path / "x.drat"))
    with pytest.raises(TypeError, match="proof_file must be a text file"), open(
        tmp_path / "b.drat", "wb"
    ) as handle:
        Solver(proof_file=handle)
    with pytest.raises(TypeError, match="proof_file must be a binary file"), open(
        tmp_path / "t.drat", "w"
    ) as handle:
        Solver(proof_file=handle, binary_proof=True)
    with pytest.raises(ValueError, match="binary_proof=True writes the proof to proof_file"):
        Solver(binary_proof=True)
    for mode in MODES:  # the right kinds still work
        with open(tmp_path / "ok.drat", "w") as text, open(tmp_path / "ok.bin", "wb") as raw:
            with Solver(mode, bootstrap_with=[[1], [-1, 2], [-2]], proof_file=text) as s:
                assert s.solve() is False
            with Solver(mode, bootstrap_with=[[1], [-1, 2], [-2]], proof_file=raw,
                        binary_proof=True) as s:  # fmt: skip
                assert s.solve() is False
        assert (tmp_path / "ok.drat").read_text().endswith("0\n")
        assert (tmp_path / "ok.bin").read_bytes().endswith(b"\x00")


def test_set_phases_are_hard_as_pysats_hitman_needs() -> None:
    # PySAT's Hitman (htype="sat") takes minimal hitting sets only from solvers whose
    # set_phases is hard (MiniSat-GH, CaDiCaL); ours was soft, and it gave [1, 4] for the
    # sets {1,4}, {1,2}, where {1} alone hits both (audit 18-D #1)
    from pysat.examples import hitman

    found = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hitman, "Solver", Solver)
        with hitman.Hitman(bootstrap_with=[[1, 4], [1, 2]], solver="mgh", htype="sat") as h:
            for hitting in h.enumerate():
                found.append(sorted(hitting))
                h.block(hitting)
    assert sorted(found) == [[1], [2, 4]]
    # and on the bare solver: the phase chosen stays chosen after other models
    with Solver(bootstrap_with=[[1, 2, 3, 4]]) as s:
        s.set_phases([-1, -2, -4])
        models = []
        while s.solve():
            models.append(s.get_model())
            s.add_clause([-lit for lit in s.get_model()])
        assert models[0] == [-1, -2, 3, -4]
        assert len(models) == 15


@pytest.mark.parametrize(
    ("name", "args"),
    [("activate_atmost", ()), ("add_xor_clause", ([1, 2],)), ("set_activities", ({1: 2.0},)),
     ("connect_propagator", (None,)), ("sync_vars", ()), ("xpairs", ()),
     ("xname", ([],)), ("flip_bits", ()), ("apply_jw", ())],
)  # fmt: skip
def test_the_rest_of_pysats_interface_says_it_is_unsupported(name, args) -> None:
    # RC2 with solver="cd19" calls activate_atmost: AttributeError instead of PySAT's
    # NotImplementedError (audit 18-D #3)
    with (
        Solver(bootstrap_with=[[1]]) as s,
        pytest.raises(NotImplementedError, match="not supported by satkit's solver"),
    ):
        getattr(s, name)(*args)
    assert set(_pysat_methods()) <= set(dir(Solver))


def _pysat_methods() -> list[str]:
    """The public methods of PySAT's Solver (its whole interface)."""
    return [name for name in dir(PySATSolver) if not name.startswith("_")]


def test_prefer_phases_is_the_soft_set_phases() -> None:
    # satkit's own: steers the next decisions as saved phases (the Hitman explorer's use)
    with Solver(bootstrap_with=[[1, 2, 3]]) as s:
        s.prefer_phases([-1, 2, -3])
        assert s.solve() and s.get_model() == [-1, 2, -3]
    with Solver(bootstrap_with=[[-1, 2], [-1, 3]]) as s:  # -1 occurs, 1 does not
        s.prefer_phases([1])  # chosen before the first solve: the counts do not override it
        assert s.solve() and s.get_model() == [1, 2, 3]
    with Solver(mode="classic") as s, pytest.raises(NotImplementedError):
        s.prefer_phases([1])


def test_the_getters_follow_enum_models_as_pysat_s_do() -> None:
    # they said what the last plain solve left: an UNSAT with its core while models came
    # out (audit 21-A #2)
    with Solver(bootstrap_with=[[1, 2]]) as s:
        assert s.solve(assumptions=[-1, -2]) is False and s.get_core() is not None
        seen = []
        for model in s.enum_models():
            assert (s.get_status(), s.get_model(), s.get_core()) == (True, model, None)
            seen.append(model)
        assert len(seen) == 3
        assert (s.get_status(), s.get_model(), s.get_core()) == (False, None, None)
        assert s.solve() is True  # the formula itself is as it was


@pytest.mark.parametrize("bad", [[5, 0], [5, 2**31], [5, 2**31 - 1]])
def test_a_refused_assumption_adds_no_variable(bad: list[int]) -> None:
    # [5, 0] was refused after variable 5 had been added: nof_vars 5, a model of 5
    # (audit 21-A #1); PySAT leaves the solver as it was
    with Solver(bootstrap_with=[[1]]) as s:
        with pytest.raises((ValueError, TooManyVariables)):
            s.solve(assumptions=bad)
        with pytest.raises((ValueError, TooManyVariables)):
            next(s.enum_models(assumptions=bad))
        assert s.nof_vars() == 1
        assert s.solve() is True and s.get_model() == [1]


def test_one_clause_given_as_a_formula_is_named() -> None:
    # "'int' object is not iterable" said nothing of what was expected (audit 21-A #3)
    expected = "a clause is a list of int literals, not 1: a formula is a list of clauses"
    with pytest.raises(TypeError, match=expected):
        Solver(bootstrap_with=[1, -2])
    with Solver() as s:
        with pytest.raises(TypeError, match=expected):
            s.append_formula([1, -2])
        with pytest.raises(TypeError, match="a clause is a list of int literals, not "):
            s.append_formula(iter([1, -2]))  # (a generator: the literal after the first)
        with pytest.raises(TypeError, match="not 5: a formula is"):
            s.add_clause(5)  # type: ignore[arg-type]
        assert s.nof_vars() == 0 and s.solve() is True


# -- audit 24-B: what a PySAT user swapping solvers trips on ------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_changing_a_yielded_model_in_place_loses_no_model(mode: str) -> None:
    # the blocking clause was made from the yielded list after the caller had it
    for make in (Minisat22, lambda **kw: Solver(mode=mode, **kw)):
        with make(bootstrap_with=[[1, 2, 3]]) as s:
            seen = []
            for model in s.enum_models():
                seen.append(tuple(model))
                del model[1:]
        assert len(set(seen)) == 7


@pytest.mark.parametrize("mode", MODES)
def test_enum_models_with_no_model_leaves_the_assumptions_core(mode: str) -> None:
    with Solver(bootstrap_with=[[-1, 2], [-2, 3]], mode=mode) as s:
        assert list(s.enum_models(assumptions=[1, -3])) == []
        assert s.get_status() is False
        assert sorted(s.get_core()) == [-3, 1]
    with Minisat22(bootstrap_with=[[-1, 2], [-2, 3]]) as s:  # (what PySAT gives)
        assert list(s.enum_models(assumptions=[1, -3])) == []
        assert sorted(s.get_core()) == [-3, 1]
    with Solver(bootstrap_with=[[1, 2]], mode=mode) as s:  # models found: the blocks did it
        assert len(list(s.enum_models())) == 3
        assert (s.get_status(), s.get_core()) == (False, None)


def test_set_phases_takes_pysats_hard_parameter() -> None:
    for hard in (True, False):
        with Solver(bootstrap_with=[[1, 2]]) as s:
            s.set_phases([-1, 2], hard=hard)
            assert s.solve() and s.get_model() == [-1, 2]
    with Solver(bootstrap_with=[[1, 2]]) as s:
        s.set_phases([-1, 2], True)  # positionally, as PySAT allows
        assert s.solve()


def test_use_timer_counts_enum_models_and_propagate_in_cpu_time() -> None:
    rng = random.Random(5)
    clauses = [[rng.choice([-1, 1]) * v for v in rng.sample(range(1, 41), 3)] for _ in range(60)]
    with Solver(bootstrap_with=clauses, use_timer=True) as s:
        count = sum(1 for _ in zip(range(200), s.enum_models(), strict=False))
        assert count == 200
        after_enum = s.time_accum()
        assert after_enum > 0
        s.propagate([1, 2])
        assert s.time_accum() > after_enum
    with Solver(bootstrap_with=clauses) as s:  # without the timer, nothing is measured
        s.solve()
        assert (s.time(), s.time_accum()) == (0.0, 0.0)


def test_solve_limited_checks_assumptions_even_when_it_stops_at_once() -> None:
    with Solver(bootstrap_with=[[1, 2], [-1, 2]]) as s:
        s.interrupt()
        with pytest.raises(ValueError):
            s.solve_limited([0])
        with pytest.raises(TypeError):
            s.solve_limited(["x"])
        assert s.solve_limited([99]) is None
        assert s.nof_vars() == 99  # its variables are known, as in PySAT
        s.clear_interrupt()
        assert s.solve() and len(s.get_model()) == 99


def test_a_list_where_the_name_goes_says_to_use_bootstrap_with() -> None:
    from dpll.solver import NoSuchSolverError

    with pytest.raises(NoSuchSolverError, match="must be a str, not list: pass the clauses as"):
        Solver([[1, 2]])


def test_use_timer_reads_the_cpu_clock_on_every_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # PySAT times with time.process_time, every solve_limited call included (review 24)
    import dpll.solver as solver_module

    ticks = itertools.count(0, 5)
    monkeypatch.setattr(solver_module.time, "process_time", lambda: float(next(ticks)))
    with Solver(bootstrap_with=[[1, 2], [-1, 2]], use_timer=True) as s:
        assert s.solve()
        assert s.time() == 5.0
        s.interrupt()
        assert s.solve_limited() is None  # stopped at once: timed all the same
        assert (s.time(), s.time_accum()) == (5.0, 10.0)


def test_after_delete_results_stay_and_work_raises() -> None:
    s = Solver(bootstrap_with=[[1, 2]])
    assert s.solve(assumptions=[-1])
    s.delete()
    assert (s.get_status(), s.get_model(), s.nof_vars()) == (True, [-1, 2], 2)
    for call in (s.solve, lambda: s.add_clause([1]), lambda: s.conf_budget(5), s.enum_models):
        with pytest.raises(RuntimeError, match="deleted"):
            result = call()
            if result is not None and not isinstance(result, bool):
                next(iter(result))


@pytest.mark.parametrize("bad", [1e3, "10", None, 2.5])
def test_budgets_take_ints_only_as_pysats_do(bad: object) -> None:
    for name in ("conf_budget", "prop_budget"):
        message = rf"^{name}'s budget must be an int, not "
        with Solver(bootstrap_with=[[1, 2]]) as s, pytest.raises(TypeError, match=message):
            getattr(s, name)(bad)
        with Minisat22(bootstrap_with=[[1, 2]]) as m, pytest.raises(TypeError):
            getattr(m, name)(bad)  # (what PySAT does)
    with Solver(bootstrap_with=[[1, 2], [-1, 2]]) as s:
        s.conf_budget(True)  # an int to Python and to PySAT: one conflict
        assert s.solve_limited() is True


def _php(pigeons: int) -> list[list[int]]:
    """Pigeons into one hole fewer: unsatisfiable, and not refuted by propagation alone."""
    holes = pigeons - 1

    def var(p: int, h: int) -> int:
        return p * holes + h + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
    for h in range(holes):
        for p, q in itertools.combinations(range(pigeons), 2):
            clauses.append([-var(p, h), -var(q, h)])
    return clauses


@pytest.mark.parametrize(
    "make",
    [lambda f: PySATSolver(name="m22", bootstrap_with=f), lambda f: Solver(bootstrap_with=f)],
)
def test_budgets_end_with_an_enumeration_and_outlive_a_refused_solve(make) -> None:
    # enum_models kept a budget that PySAT's (its `solve` in a loop) switches off, and a
    # solve() refused for its assumptions switched it off where PySAT's keeps it (audit 28-B #2)
    with make(_php(6)) as s:
        s.conf_budget(2)
        assert list(s.enum_models()) == []
        assert s.solve_limited() is False
    with make(_php(6)) as s:
        s.conf_budget(2)
        with pytest.raises((ValueError, TypeError)):
            s.solve(assumptions=[1.5])
        assert s.solve_limited() is None


def _models_until_the_second(s: Solver, then) -> list[list[int]]:
    """Enumerate ``s``'s models, calling ``then(s)`` once the second is out."""
    models = []
    for model in s.enum_models():
        models.append(model)
        if len(models) == 2:
            then(s)
    return models


def test_delete_ends_a_running_enumeration() -> None:
    # the enumeration went on solving its private copy after delete(): 7 models where
    # PySAT's gives 2 (audit 28-B #3)
    s = Solver(bootstrap_with=[[1, 2, 3]])
    assert len(_models_until_the_second(s, Solver.delete)) == 2
    with pytest.raises(RuntimeError):
        list(s.enum_models())

    # delete() then new(): the solver is another one, and the old loop ends too (it went
    # on with the old formula, then failed with "list.remove(x): x not in list"; review 28 #5)
    def renew(solver: Solver) -> None:
        solver.delete()
        solver.new(bootstrap_with=[[-1], [-2], [-3]])

    s = Solver(bootstrap_with=[[1, 2, 3]])
    assert len(_models_until_the_second(s, renew)) == 2
    assert s.accum_stats()["decisions"] == 0 and s.get_status() is None
    assert list(s.enum_models()) == [[-1, -2, -3]]


@pytest.mark.parametrize("seed", [None, 1.5, True, "3"])
def test_a_seed_that_is_no_int_is_refused_by_name(seed) -> None:
    with pytest.raises(TypeError, match=r"^seed must be an int, not "):
        Solver(seed=seed)


def test_a_formula_unsat_on_its_own_may_still_get_a_core_as_with_pysat() -> None:
    # the docs said the core is None whenever the formula alone is unsatisfiable; both
    # solvers give the assumptions their search used unless the top level refutes it
    formula = [[-1, -3, -2], [3, -1, -2], [1, 3, -2], [2, 3, -1], [1, -3, -2], [1, 2, 3],
               [1, -3, 2], [-2, 3, -1], [2, -1, -3]]  # fmt: skip
    with Minisat22(bootstrap_with=formula) as alone:
        assert alone.solve() is False
    with Minisat22(bootstrap_with=formula) as reference, Solver(bootstrap_with=formula) as s:
        assert s.solve(assumptions=[2, -1]) is False
        assert reference.solve(assumptions=[2, -1]) is False
        assert s.get_core() == reference.get_core() == [2]
    with Solver(bootstrap_with=[[1, 2], [1, -2], [-1, 2], [-1, -2]]) as s:
        assert s.solve(assumptions=[1]) is False and s.get_core() is None
