"""maze.pipeline: SAT ⇔ the search finds a walk, for both encodings; decoded paths validate."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pysat.solvers import Minisat22

from dpll import Solver
from maze.generator import generate_maze
from maze.parser import parse_maze, read_maze
from maze.pipeline import MazeSolveError, attempt, solve_maze
from maze.search import find_walk, shortest_walk
from maze.validator import path_problems

COMPAT = Path(__file__).resolve().parents[1].parent / "shared" / "compat"
needs_compat = pytest.mark.skipif(not COMPAT.is_dir(), reason="../shared/compat is absent")

SOLVERS = {
    "dpll": lambda clauses: Solver(bootstrap_with=clauses),
    "minisat22": lambda clauses: Minisat22(bootstrap_with=clauses),
}


def _mazes(count: int, seed: int):
    """Small and medium random mazes, two-way and one-way, many of them unsatisfiable."""
    rng = random.Random(seed)
    for index in range(count):
        nodes = rng.choice([rng.randint(2, 9), rng.randint(10, 45)])
        yield generate_maze(
            nodes,
            rng.randint(0, 5),
            rng.randint(0, 12),
            seed=seed * 10_000 + index,
            degree=rng.choice([1.5, 2.5, 3.5]),
            one_way=rng.choice([0.0, 0.0, 0.3, 0.8]),
        )


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize("encoding", ["assignment", "compact"])
def test_sat_iff_search_finds_a_walk(solver, encoding):
    outcomes = {True: 0, False: 0}
    for maze in _mazes(150, seed=7):
        answer = solve_maze(maze, SOLVERS[solver], encoding=encoding)
        walk = find_walk(maze)
        assert (answer.path is not None) == (walk is not None), maze.name
        if answer.path is not None:
            assert path_problems(maze, answer.path) == []
        outcomes[answer.path is not None] += 1
    assert min(outcomes.values()) >= 30  # the sample really holds both kinds


def test_shortest_agrees_with_the_search():
    for maze in _mazes(60, seed=3):
        answer = solve_maze(maze, SOLVERS["dpll"], encoding="compact", shortest=True)
        least = shortest_walk(maze)
        assert (answer.path is None) == (least is None), maze.name
        if least is not None:
            assert answer.steps == len(least) - 1
            assert [a.steps for a in answer.attempts] == list(range(answer.steps + 1))
            assert [a.satisfiable for a in answer.attempts][-1] is True
            assert not any(a.satisfiable for a in answer.attempts[:-1])
        else:
            assert [a.steps for a in answer.attempts] == list(range(maze.steps + 1))


@needs_compat
def test_example_maze_answers():
    maze = read_maze(COMPAT / "Junxiao-Zhao__Davis-Putnam/FrontEndInput.txt")
    answer = solve_maze(maze, SOLVERS["dpll"])
    assert path_problems(maze, answer.path) == []
    record = answer.attempts[0]
    assert (record.clauses, record.variables, record.atoms, record.steps) == (334, 72, 72, 5)
    assert record.satisfiable is True and "conflicts" in record.stats
    shortest = solve_maze(maze, SOLVERS["minisat22"], shortest=True)
    assert shortest.text() == "START C G H"
    assert [a.satisfiable for a in shortest.attempts] == [False, False, False, True]
    data = shortest.as_dict()
    assert data["answer"] == "START C G H" and data["steps"] == 3
    assert len(data["attempts"]) == 4 and data["attempts"][0]["satisfiable"] is False


class _Liar:
    """A solver that claims SAT and returns a model of its choosing."""

    def __init__(self, model, verdict=True):
        self.model, self.verdict = model, verdict

    def solve(self):
        return self.verdict

    def get_model(self):
        return self.model

    def accum_stats(self):
        raise NotImplementedError

    def delete(self):
        pass


SMALL = parse_maze(
    "START A B\nGOLD WAND\n3\n"
    "START TREASURES NEXT A B\nA TREASURES GOLD NEXT START\nB TREASURES WAND NEXT START\n"
)


def test_a_model_that_breaks_a_clause_is_caught():
    with pytest.raises(MazeSolveError, match="does not satisfy clause"):
        attempt(SMALL, 3, lambda clauses: _Liar([-v for v in range(1, 21)]))


def test_a_model_with_a_variable_the_cnf_lacks_is_caught():
    # a real model plus `999`: maze solve printed the path, crosscheck said invalid-model
    good = attempt(SMALL, 3, lambda clauses: Solver(bootstrap_with=clauses))[1]
    assert good is not None

    def model(clauses):
        with Solver(bootstrap_with=clauses) as solver:
            solver.solve()
            return [*solver.get_model(), 999]

    with pytest.raises(MazeSolveError, match="gives variable 999 a value, but the CNF has 20"):
        attempt(SMALL, 3, lambda clauses: _Liar(model(clauses)))


@pytest.mark.parametrize("model", [[], None])
def test_sat_without_a_model_is_said_so(model):
    # cadical -n prints `s SATISFIABLE` and no v lines: this used to be "the solver's model
    # is wrong: … does not satisfy clause 1", where crosscheck and maze decode say no model
    with pytest.raises(MazeSolveError, match=r"^the solver said SATISFIABLE but gave no model$"):
        attempt(SMALL, 3, lambda clauses: _Liar(model))


def test_a_model_that_is_no_walk_is_caught(monkeypatch):
    """With the clause check switched off, the path check still refuses a wrong walk."""
    monkeypatch.setattr("maze.pipeline.check_model", lambda *args: None)
    walk = [1, 5, 9, 10]  # At(START,0) At(A,1) At(B,2) At(START,3): no exit A -> B
    model = [v if v in walk or v > 12 else -v for v in range(1, 21)]
    with pytest.raises(MazeSolveError, match="no exit from A to B"):
        attempt(SMALL, 3, lambda clauses: _Liar(model))
    with pytest.raises(MazeSolveError, match="no At"):
        attempt(SMALL, 3, lambda clauses: _Liar([-v for v in range(1, 21)]))


def test_a_solver_that_gives_up_leaves_the_answer_unknown():
    record, path = attempt(SMALL, 3, lambda clauses: _Liar(None, verdict=None))
    assert path is None and record.satisfiable is None
    # the pipeline stops there: neither a path nor "no solution"
    answer = solve_maze(SMALL, lambda clauses: _Liar(None, verdict=None), shortest=True)
    assert answer.unknown and answer.status == "unknown" and answer.text() == ""
    assert len(answer.attempts) == 1 and answer.as_dict()["answer"] is None


def test_unsatisfiable_is_confirmed_by_the_layered_search():
    record, path = attempt(SMALL, 2, SOLVERS["dpll"])
    assert path is None and record.satisfiable is False and record.confirmed is True
    # a solver that wrongly says "unsatisfiable" is caught: SMALL has a walk at K=3
    with pytest.raises(MazeSolveError, match="layered search finds the walk START"):
        attempt(SMALL, 3, lambda clauses: _Liar(None, verdict=False))
    with pytest.raises(MazeSolveError, match="K=3 has no solution"):
        solve_maze(SMALL, lambda clauses: _Liar(None, verdict=False), shortest=True)


def test_an_unsatisfiable_too_big_to_search_stands_unconfirmed(monkeypatch):
    monkeypatch.setattr("maze.pipeline.CONFIRM_SECONDS", -1.0)
    record, path = attempt(SMALL, 3, lambda clauses: _Liar(None, verdict=False))
    assert path is None and record.satisfiable is False and record.confirmed is None
    assert record.stats == {} and record.as_dict()["confirmed"] is None


def test_a_solver_with_solve_limited_is_asked_through_it():
    # an external program's UNKNOWN is None from solve_limited (solve would raise)
    class GivesUp(_Liar):
        def solve(self):
            raise AssertionError("solve_limited should have been used")

        def solve_limited(self):
            return None

    record, path = attempt(SMALL, 3, lambda clauses: GivesUp(None))
    assert path is None and record.satisfiable is None


def test_a_solver_without_a_limited_solve_is_asked_plainly():
    # PySAT's Lingeling raises NotImplementedError from solve_limited: this was a traceback
    from pysat.solvers import Lingeling

    record, path = attempt(SMALL, 3, lambda clauses: Lingeling(bootstrap_with=clauses))
    assert record.satisfiable is True and path is not None
    assert not path_problems(SMALL, path, 3)


def test_shortest_confirms_every_unsatisfiable_k_with_one_search(monkeypatch):
    calls = []
    import maze.pipeline

    real = maze.pipeline.shortest_walk
    monkeypatch.setattr(
        maze.pipeline, "shortest_walk", lambda *a, **k: calls.append(a[1]) or real(*a, **k)
    )
    answer = solve_maze(SMALL, SOLVERS["dpll"], shortest=True)
    assert answer.steps == 3 and calls == [2]  # one search, up to the K below the answer
    assert [a.confirmed for a in answer.attempts] == [True, True, True, None]
    monkeypatch.setattr("maze.pipeline.CONFIRM_SECONDS", -1.0)
    answer = solve_maze(SMALL, SOLVERS["dpll"], shortest=True)
    assert [a.confirmed for a in answer.attempts] == [None, None, None, None]


def test_before_attempt_sees_each_k_before_it_is_encoded():
    seen = []
    answer = solve_maze(SMALL, SOLVERS["dpll"], shortest=True, before_attempt=seen.append)
    assert seen == [0, 1, 2, 3] and answer.steps == 3
