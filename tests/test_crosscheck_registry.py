"""crosscheck.registry: names -> solvers with the PySAT surface; unknown names are clear errors."""

from __future__ import annotations

import importlib.util

import pytest

from crosscheck.registry import (
    CLASSIC_HEURISTICS,
    canonical_name,
    make_solver,
    pysat_solver_names,
    solver_names,
)

PHP_2_1 = [[1], [2], [-1, -2]]  # two pigeons, one hole: UNSAT
SMALL_SAT = [[1, 2], [-1, 3], [-3, -2], [2, 3]]

dpll_ready = importlib.util.find_spec("dpll.solver") is not None
classic_ready = dpll_ready and importlib.util.find_spec("dpll.classic") is not None
needs_dpll = pytest.mark.skipif(not dpll_ready, reason="dpll.Solver has not landed yet")
needs_classic = pytest.mark.skipif(not classic_ready, reason="dpll.classic has not landed yet")


def test_names_cover_ours_and_pysat():
    names = solver_names()
    assert names[:3] == ["dpll", "dpll:cdcl", "dpll:classic"]
    assert [f"dpll:classic/{h}" for h in CLASSIC_HEURISTICS] == names[3:8]
    assert names[8:10] == ["dpll:cdcl/vsids", "dpll:cdcl/vsids-numbered"]
    for name in ("minisat22", "cadical153", "glucose4", "lingeling"):
        assert name in names
    assert set(pysat_solver_names()) <= set(names)
    assert len(names) == len(set(names))


@pytest.mark.parametrize(
    "name", ["minisat22", "m22", "cadical153", "glucose4", "minisatgh", "maplechrono"]
)
def test_pysat_solvers_have_the_surface(name):
    with make_solver(name, bootstrap_with=SMALL_SAT) as solver:
        assert solver.solve() is True
        model = solver.get_model()
        assert all(any(lit in model for lit in clause) for clause in SMALL_SAT)
        assert solver.solve(assumptions=[-2]) is True
        stats = solver.accum_stats()
        assert "conflicts" in stats
        solver.add_clause([-2])
        solver.add_clause([-3])
        assert solver.solve() is False
        assert solver.solve_limited() is False


def test_unsat_and_core():
    with make_solver("minisat22", bootstrap_with=[[-1, -2]]) as solver:
        assert solver.solve(assumptions=[1, 2]) is False
        assert set(solver.get_core()) <= {1, 2}
    with make_solver("minisat22", bootstrap_with=PHP_2_1) as solver:
        assert solver.solve() is False


def test_options_reach_pysat():
    with make_solver("minisat22", bootstrap_with=SMALL_SAT, use_timer=True) as solver:
        solver.solve()
        assert solver.time() >= 0.0


@pytest.mark.parametrize(
    "name", ["", "nope", "dpll:fast", "dpll:classic/best", "DPLL", "minisat"]
)
def test_unknown_names(name):
    with pytest.raises(ValueError) as caught:
        make_solver(name)
    message = str(caught.value)
    assert f"unknown solver {name!r}" in message
    assert "dpll:classic/course" in message and "minisat22" in message


def test_unavailable_pysat_solver():
    from pysat import solvers

    if getattr(solvers, "cms_present", False):
        pytest.skip("pycryptosat is installed here")
    with pytest.raises(ValueError, match="not available"):
        make_solver("cryptosat")


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("dpll", marks=needs_dpll),
        pytest.param("dpll:cdcl", marks=needs_dpll),
        pytest.param("dpll:classic", marks=needs_classic),
        pytest.param("dpll:classic/course", marks=needs_classic),
        pytest.param("dpll:classic/jw", marks=needs_classic),
        pytest.param("dpll:cdcl/vsids", marks=needs_dpll),
        pytest.param("dpll:cdcl/vsids-numbered", marks=needs_dpll),
    ],
)
def test_our_solvers(name):
    with make_solver(name, bootstrap_with=SMALL_SAT) as solver:
        assert solver.solve() is True
        model = solver.get_model()
        assert all(any(lit in model for lit in clause) for clause in SMALL_SAT)
        assert isinstance(solver.accum_stats(), dict)
    with make_solver(name, bootstrap_with=PHP_2_1) as solver:
        assert solver.solve() is False


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("dpll", "dpll:cdcl"),
        ("dpll:cdcl", "dpll:cdcl"),
        ("dpll:cdcl/vsids", "dpll:cdcl"),  # the default spelled out (audit 16-C)
        ("dpll:classic", "dpll:classic"),
        ("dpll:classic/jw", "dpll:classic/jw"),
        ("m22", "minisat22"),
        ("minisat22", "minisat22"),
        ("cd15", "cadical153"),
        ("mgh", "minisatgh"),
        ("MiniSat22", "minisat22"),  # PySAT takes its names in any case
        ("Glucose4", "glucose4"),
        ("CaDiCaL153", "cadical153"),
    ],
)
def test_canonical_names(name, canonical):
    assert canonical_name(name) == canonical
    assert canonical in solver_names()


@pytest.mark.parametrize("name", ["nope", "dpll:classic/best", "DPLL"])
def test_canonical_name_of_unknown(name):
    with pytest.raises(ValueError, match="valid names"):
        canonical_name(name)
