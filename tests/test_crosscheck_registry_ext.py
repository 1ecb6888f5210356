"""crosscheck.registry, the parts crosscheck added: bin:<program> names, register_solver, kinds."""

from __future__ import annotations

import shutil
import sys

import pytest

from crosscheck.external import ExternalSolver
from crosscheck.registry import (
    canonical_name,
    external_solver_names,
    make_solver,
    register_solver,
    solver_kind,
    solver_names,
    unavailable_reason,
    unregister_solver,
)

SAT = [[1, 2], [-1, 3], [-3, -2], [2, 3]]
UNSAT = [[1], [2], [-1, -2]]


def test_external_names_are_listed_after_the_existing_ones():
    names = solver_names()
    assert names[:3] == ["dpll", "dpll:cdcl", "dpll:classic"]  # the maze helper's order stands
    assert external_solver_names() == ["bin:minisat", "bin:cadical", "bin:kissat", "bin:picosat"]
    assert names[-4:] == external_solver_names()
    assert len(names) == len(set(names))


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("dpll", "ours"),
        ("dpll:classic/jw", "ours"),
        ("m22", "pysat"),
        ("kissat", "pysat"),  # PySAT's alias of kissat404, not the program
        ("bin:kissat", "external"),
        ("bin:/opt/solvers/cadical", "external"),
    ],
)
def test_solver_kind(name, kind):
    assert solver_kind(name) == kind


@pytest.mark.parametrize("name", ["bin:", "bin: ", "minisat"])
def test_unknown_external_names(name):
    with pytest.raises(ValueError, match="unknown solver"):
        canonical_name(name)


@pytest.mark.parametrize("name", ["bin:glucose", "bin:/usr/bin/lingeling", "bin:./mysolver"])
def test_any_other_program_is_an_external_name(name):
    assert canonical_name(name) == name and solver_kind(name) == "external"


def test_missing_other_programs_are_unavailable_with_the_reason(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert unavailable_reason("bin:glucose") == (
        "solver 'bin:glucose' is not available: no 'glucose' program on PATH"
    )
    missing = tmp_path / "mysolver"
    assert unavailable_reason(f"bin:{missing}") == (
        f"solver 'bin:{missing}' is not available: no such file '{missing}'"
    )
    missing.write_text("#!/bin/sh\n")
    assert unavailable_reason(f"bin:{missing}").endswith(f"'{missing}' is not executable")
    with pytest.raises(ValueError, match="is not executable"):
        make_solver(f"bin:{missing}", bootstrap_with=SAT)
    missing.chmod(0o755)
    assert unavailable_reason(f"bin:{missing}") is None


def test_other_program_through_the_registry(tmp_path):
    """A Python script that prints a fixed competition answer is a solver like any other."""
    script = tmp_path / "fixed-answer"
    script.write_text(
        "#!" + sys.executable + "\n"
        "import sys\n"
        "assert len(sys.argv) == 2 and open(sys.argv[1]).read().startswith('p cnf')\n"
        "print('c a fixed answer'); print('s SATISFIABLE'); print('v 1 -2 3 0')\n"
        "sys.exit(10)\n"
    )
    script.chmod(0o755)
    with make_solver(f"bin:{script}", bootstrap_with=SAT) as solver:
        assert isinstance(solver, ExternalSolver)
        assert solver.solve() is True and solver.get_model() == [1, -2, 3]


def test_missing_program_is_unavailable_not_unknown(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert canonical_name("bin:kissat") == "bin:kissat"
    reason = unavailable_reason("bin:kissat")
    assert reason == "solver 'bin:kissat' is not available: no 'kissat' program on PATH"
    with pytest.raises(ValueError, match="not available"):
        make_solver("bin:kissat", bootstrap_with=SAT)


def test_unavailable_reason_of_working_solvers():
    assert unavailable_reason("dpll") is None
    assert unavailable_reason("minisat22") is None


def test_unavailable_pysat_solver_has_one_clear_message():
    from pysat import solvers

    if getattr(solvers, "cms_present", False):
        pytest.skip("pycryptosat is installed here")
    reason = unavailable_reason("cryptosat")
    assert reason is not None and reason.count("not available") == 1


class _AlwaysUnsat:
    """Test-only: answers UNSAT to everything."""

    def __init__(self, bootstrap_with=None, **options):
        self.options = options

    def solve(self, assumptions=()):
        return False

    def delete(self):
        pass


def test_register_and_unregister():
    register_solver("test:always-unsat", _AlwaysUnsat)
    try:
        assert canonical_name("test:always-unsat") == "test:always-unsat"
        assert solver_kind("test:always-unsat") == "registered"
        assert "test:always-unsat" in solver_names()
        solver = make_solver("test:always-unsat", bootstrap_with=SAT, seed=4)
        assert solver.solve() is False and solver.options == {"seed": 4}
        with pytest.raises(ValueError, match="already a solver name"):
            register_solver("test:always-unsat", _AlwaysUnsat)
    finally:
        unregister_solver("test:always-unsat")
    with pytest.raises(ValueError, match="unknown solver"):
        canonical_name("test:always-unsat")
    unregister_solver("test:always-unsat")  # twice is fine


@pytest.mark.parametrize("name", ["dpll", "m22", "bin:minisat", ""])
def test_register_refuses_taken_names(name):
    with pytest.raises(ValueError, match="already a solver name"):
        register_solver(name, _AlwaysUnsat)


needs_cadical = pytest.mark.skipif(shutil.which("cadical") is None, reason="cadical not on PATH")


@needs_cadical
def test_external_solver_has_the_pysat_surface():
    with make_solver("bin:cadical", bootstrap_with=SAT) as solver:
        assert isinstance(solver, ExternalSolver)
        assert solver.solve() is True
        model = solver.get_model()
        assert all(any(lit in model for lit in clause) for clause in SAT)
        assert solver.solve(assumptions=[-2, -3]) is False
        assert solver.get_core() == [-2, -3] and solver.get_model() is None
        solver.add_clause([-2])
        assert solver.solve_limited() is True and solver.get_status() is True
        assert solver.nof_clauses() == 5 and solver.nof_vars() == 3
        assert solver.accum_stats()["calls"] == 3
    with make_solver("bin:cadical", bootstrap_with=UNSAT) as solver:
        assert solver.solve() is False


@needs_cadical
def test_external_solver_interrupt_gives_none_then_clears():
    solver = make_solver("bin:cadical", bootstrap_with=SAT)
    solver.interrupt()
    assert solver.solve_limited() is None
    solver.clear_interrupt()
    assert solver.solve_limited() is True


@needs_cadical
def test_external_solver_rejects_zero_literals():
    solver = make_solver("bin:cadical")
    with pytest.raises(ValueError, match="non-zero"):
        solver.add_clause([1, 0])


@needs_cadical
def test_external_solver_reads_pysat_formula_objects_as_dpll_does():
    # it read `formula.clauses`, which for And/Equals/XOr holds only the top node's
    # clauses: an unsatisfiable formula was answered SAT (audit 19-C #1)
    from pysat.formula import And, Atom, Equals, Neg, XOr

    x, y, z = Atom("x"), Atom("y"), Atom("z")
    for formula, expected in (
        (And(Equals(x, y), x, Neg(y)), False),
        (And(XOr(x, y, z), Neg(x), Neg(y), Neg(z)), False),
        (And(XOr(x, y, z), Neg(x), Neg(y)), True),
    ):
        answers = []
        for name in ("dpll", "minisat22", "bin:cadical"):
            with make_solver(name, bootstrap_with=formula) as solver:
                answers.append(solver.solve())
        assert answers == [expected] * 3


@needs_cadical
def test_external_solver_refuses_atmost_constraints_and_bad_literals():
    # a CNFPlus's AtMost constraints were dropped without a word (SAT for an UNSAT
    # formula), and 1.7 / True were coerced to 1 (audit 19-C #1)
    from pysat.formula import CNFPlus

    plus = CNFPlus()
    plus.append([1])
    plus.append([2])
    plus.append([[1, 2], 1], is_atmost=True)
    with pytest.raises(NotImplementedError, match="AtMost"):
        make_solver("bin:cadical", bootstrap_with=plus)
    solver = make_solver("bin:cadical", bootstrap_with=SAT)
    assert solver.supports_atmost() is False
    with pytest.raises(NotImplementedError, match="AtMost"):
        solver.add_atmost([1, 2], 1)
    for bad in ([1.7], [True, -2], ["1"]):
        with pytest.raises(TypeError, match="non-zero int"):
            solver.add_clause(bad)
    with pytest.raises(ValueError, match="2\\^31-1"):
        solver.add_clause([2**31])
    with pytest.raises(ValueError, match="an assumption must be a non-zero int"):
        solver.solve(assumptions=[0])
    with pytest.raises(TypeError, match="non-zero int"):
        solver.solve(assumptions=[1.0])
    # a refused clause of a batch adds nothing
    with pytest.raises(ValueError):
        solver.append_formula([[1, 2], [3, 0]])
    assert solver.nof_clauses() == len(SAT) and solver.nof_vars() == 3
    assert solver.solve() is True
