"""Seed 003's SampleDIMACS files: read as DIMACS, models counted with dpll.Solver.enum_models."""

from __future__ import annotations

from pathlib import Path

import pytest

from formats.dimacs import read_dimacs

SAMPLES = (
    Path(__file__).resolve().parents[1].parent
    / "shared"
    / "seeds-data"
    / "kompy99__SATSolver"
    / "SampleDIMACS"
)
pytestmark = pytest.mark.skipif(
    not SAMPLES.is_dir(), reason=f"seed samples not found at {SAMPLES} (../shared)"
)

# file, variables, clauses, number of models (SOURCES.md / einstein_expected.json)
EXPECTED = [("dimacs1.txt", 20, 91, 1), ("dimacs2.txt", 3, 3, 5), ("dimacs3.txt", 2, 4, 0)]
ENGINES = [("classic", "two-clause"), ("classic", "random"), ("classic", "course"), ("cdcl", None)]


def solver_class(mode: str, heuristic: str | None):
    """dpll.Solver, or a skip while the requested engine has not landed."""
    try:
        from dpll import Solver

        Solver(bootstrap_with=[[1]], mode=mode, heuristic=heuristic).delete()
    except ImportError as exc:
        pytest.skip(f"dpll mode {mode!r} has not landed yet ({exc})")
    return Solver


def test_dimacs1_header_has_extra_blanks() -> None:
    first_line = (SAMPLES / "dimacs1.txt").read_text().split("\n")[0]
    assert first_line == "p cnf 20  91 "
    formula = read_dimacs(SAMPLES / "dimacs1.txt", strict=True)
    assert (formula.nvars, len(formula.clauses), formula.warnings) == (20, 91, [])


@pytest.mark.parametrize(("name", "nvars", "nclauses", "models"), EXPECTED)
@pytest.mark.parametrize(("mode", "heuristic"), ENGINES)
def test_model_counts(
    name: str, nvars: int, nclauses: int, models: int, mode: str, heuristic: str | None
) -> None:
    formula = read_dimacs(SAMPLES / name)
    assert (formula.nvars, len(formula.clauses)) == (nvars, nclauses)
    solver = solver_class(mode, heuristic)
    with solver(bootstrap_with=formula.clauses, mode=mode, heuristic=heuristic, seed=5) as s:
        found = [tuple(model) for model in s.enum_models()]
        assert s.solve() is (models > 0)  # enumeration left the formula as it was
    assert len(found) == models
    assert len(set(found)) == models
    for model in found:
        assert [abs(lit) for lit in model] == list(range(1, nvars + 1))
        true = set(model)
        assert all(any(lit in true for lit in clause) for clause in formula.clauses)
