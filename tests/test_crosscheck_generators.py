"""crosscheck.generators: seeded, bounded, and shaped like their families."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosscheck.generators import (
    MAX_CLAUSE,
    MAZE_MIN_ATOMS,
    MIN_VARS,
    cnfuzz,
    edge,
    random_ksat,
    random_maze,
)
from formats.dimacs import dimacs_text, parse_dimacs

seeds = st.integers(0, 10**9)
bounds = st.integers(3, 150)


@settings(max_examples=60, deadline=None)
@given(seeds, bounds)
def test_cnfuzz_is_layered_bounded_and_deterministic(seed, max_vars):
    formula = cnfuzz(seed, max_vars)
    assert formula == cnfuzz(seed, max_vars)
    assert formula.comments[0] == f"seed {seed}"
    assert 1 <= formula.nvars <= max_vars
    for clause in formula.clauses:
        assert 1 <= len(clause) <= MAX_CLAUSE
        assert len({abs(lit) for lit in clause}) == len(clause)  # no repeated variable
        assert all(1 <= abs(lit) <= formula.nvars for lit in clause)
    layers = [c for c in formula.comments if c.startswith("layer ")]
    assert len(layers) >= 1


def test_cnfuzz_uses_every_literal_of_small_layers():
    formula = cnfuzz(11, 12)
    used = {lit for clause in formula.clauses for lit in clause}
    assert used == {v for var in range(1, formula.nvars + 1) for v in (var, -var)}


@settings(max_examples=60, deadline=None)
@given(seeds, bounds)
def test_ksat_is_uniform_and_near_the_threshold(seed, max_vars):
    formula = random_ksat(seed, max_vars)
    assert formula == random_ksat(seed, max_vars)
    k = len(formula.clauses[0])
    assert k in (2, 3, 4) and all(len(clause) == k for clause in formula.clauses)
    assert k <= max_vars and formula.nvars <= max_vars
    ratio = len(formula.clauses) / formula.nvars
    low, high = {2: (0.8, 1.2), 3: (3.8, 4.7), 4: (9.0, 10.8)}[k]
    assert low - 0.5 <= ratio <= high + 0.5  # rounding of m on small n


def test_seed_comment_survives_dimacs():
    text = dimacs_text(cnfuzz(42, 30))
    assert text.startswith("c seed 42\n")
    assert parse_dimacs(text).clauses == cnfuzz(42, 30).clauses


@pytest.mark.parametrize("max_vars", [MAZE_MIN_ATOMS, 7, 8, 40, 200])
def test_random_mazes_fit_the_bound(max_vars):
    for seed in range(40):
        maze, encoding = random_maze(seed, max_vars)
        atoms = (len(maze.nodes) + len(maze.treasures)) * (maze.steps + 1)
        assert atoms <= max_vars
        assert encoding == ("assignment", "compact")[seed % 2]
        assert maze == random_maze(seed, max_vars)[0]


@pytest.mark.parametrize("max_vars", [2, 3, 4, 5])
def test_small_bounds_are_bounds(max_vars):
    """--max-vars 3 once gave 4-SAT over 4 variables and mazes of 8 atoms."""
    for seed in range(200):
        if max_vars >= MIN_VARS["cnfuzz"]:
            assert cnfuzz(seed, max_vars).nvars <= max_vars
        formula = random_ksat(seed, max_vars)
        assert formula.nvars <= max_vars
        assert all(len(set(map(abs, clause))) == len(clause) for clause in formula.clauses)
    assert max(MIN_VARS.values()) == MIN_VARS["maze"] == MAZE_MIN_ATOMS


def test_families_mix_sat_and_unsat():
    from pysat.solvers import Solver

    from maze.search import find_walk

    answers = {"cnfuzz": set(), "ksat": set(), "maze": set()}
    for seed in range(40):
        for name, make in (("cnfuzz", cnfuzz), ("ksat", random_ksat)):
            with Solver(name="m22", bootstrap_with=make(seed, 40).clauses) as solver:
                answers[name].add(solver.solve())
        answers["maze"].add(find_walk(random_maze(seed, 40)[0]) is not None)
    assert all(found == {True, False} for found in answers.values())


@pytest.mark.slow
def test_the_satisfiable_shares_in_the_docstring_are_measured():
    # they said "mostly" (cnfuzz, 53 %) and "about half" (ksat, 65 %) (audit 19-B #7)
    from pysat.solvers import Solver

    import crosscheck.generators as generators

    def satisfiable(make, max_vars):
        found = 0
        for seed in range(400):
            with Solver(name="m22", bootstrap_with=make(seed, max_vars).clauses) as solver:
                found += solver.solve()
        return found

    doc = generators.__doc__
    assert "seeds 0–399 at\n``max_vars`` 200 with PySAT's MiniSat 2.2" in doc
    for name, make in (("cnfuzz", cnfuzz), ("random_ksat", random_ksat)):
        bullet = doc[doc.index(f"- :func:`{name}`") :].split("\n- ")[0]
        found = satisfiable(make, 200)
        assert f"{found} of 400 satisfiable ({round(found / 4)} %)" in bullet, name
    cnfuzz_40, ksat_40 = satisfiable(cnfuzz, 40), satisfiable(random_ksat, 40)
    shares = f"({round(cnfuzz_40 / 4)} % and {round(ksat_40 / 4)} %)"
    assert f"they are {cnfuzz_40} and {ksat_40} of 400 {shares}" in " ".join(doc.split())


def test_edge_puts_edge_cases_into_cnfuzz_formulas():
    # no family produced duplicate literals, tautologies, empty clauses, formulas without
    # clauses or variables declared but unused (audit 19-B #3)
    seen = Counter()
    for seed in range(200):
        formula = edge(seed, 60)
        assert formula.comments[0] == f"seed {seed}"
        assert formula.nvars <= 60
        assert all(1 <= abs(lit) <= formula.nvars for c in formula.clauses for lit in c)
        used = {abs(lit) for clause in formula.clauses for lit in clause}
        kinds = {
            "duplicate": any(len(set(clause)) < len(clause) for clause in formula.clauses),
            "tautology": any(-lit in clause for clause in formula.clauses for lit in clause),
            "empty clause": [] in formula.clauses,
            "no clauses": not formula.clauses,
            "no variables": formula.nvars == 0,
            "unused": len(used) < formula.nvars,
        }
        seen.update(kind for kind, found in kinds.items() if found)
        assert kinds["duplicate"] or kinds["tautology"] or kinds["no clauses"]
        assert len(formula.comments) > 2 and formula.comments[2].startswith("edge: ")
        # every edge case is written out and read back as it is
        assert parse_dimacs(dimacs_text(formula)).clauses == formula.clauses
        assert parse_dimacs(dimacs_text(formula)).nvars == formula.nvars
        if formula.clauses and not kinds["unused"]:  # the rest is cnfuzz's formula, grown
            base = cnfuzz(seed, 60)
            assert len(formula.clauses) - len(base.clauses) == kinds["empty clause"]
    assert edge(7, 60) == edge(7, 60)
    assert set(seen) == {"duplicate", "tautology", "empty clause", "no clauses", "no variables",
                         "unused"}, seen  # fmt: skip
    assert seen["empty clause"] < 40 and seen["no clauses"] < 25  # now and then only
