"""crosscheck.validate: the independent checks — models by a plain loop, proofs by dratify."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crosscheck.validate import (
    decode_path,
    model_problem,
    path_problem,
    proof_file_problem,
    proof_problem,
)
from maze.key import key_from_names
from maze.parser import parse_maze

clause = st.lists(st.integers(1, 8).flatmap(lambda v: st.sampled_from([v, -v])), max_size=4)
formula = st.lists(clause, max_size=12)
assignment = st.lists(st.booleans(), min_size=8, max_size=8)


@settings(max_examples=200, deadline=None)
@given(formula, assignment)
def test_model_problem_agrees_with_evaluation(clauses, values):
    model = [v if values[v - 1] else -v for v in range(1, 9)]
    satisfied = all(any(values[abs(l) - 1] == (l > 0) for l in c) for c in clauses)
    problem = model_problem(clauses, model)
    assert (problem is None) == satisfied
    if problem is not None:
        number = int(problem.split()[1])
        assert not any(values[abs(l) - 1] == (l > 0) for l in clauses[number - 1])


def test_model_problem_edge_cases():
    assert model_problem([], []) is None
    assert model_problem([[]], [1]) == "clause 1 is false: 0 (the empty clause)"
    assert model_problem([[1]], None) == "the solver said SAT but gave no model"
    assert model_problem([[1]], [1, -1]) == "the model holds both -1 and 1"
    assert model_problem([[1, 2]], [2]) is None  # partial models are allowed
    assert model_problem([[1, 2]], [-2]) == "clause 1 is false: 1 2 0"  # 1 unassigned: not true


PHP_3_2 = [[1, 2], [3, 4], [5, 6], [-1, -3], [-1, -5], [-3, -5], [-2, -4], [-2, -6], [-4, -6]]


def test_a_real_proof_verifies_and_a_broken_one_does_not():
    from dpll import Solver

    with Solver(bootstrap_with=PHP_3_2, with_proof=True) as solver:
        assert solver.solve() is False
        proof = solver.get_proof()
    assert proof_problem(PHP_3_2, proof) is None
    assert "rejects" in proof_problem(PHP_3_2, ["0"])  # the empty clause is not RUP here
    assert "rejects" in proof_problem(PHP_3_2, [])  # no empty clause at all
    assert "cannot read" in proof_problem(PHP_3_2, ["1 x 0"])


def test_an_empty_clause_in_the_input_needs_only_the_empty_lemma():
    assert proof_problem([[1], []], ["0"]) is None


def test_a_proof_file_is_checked_as_text_drat(tmp_path):
    # the proofs of PySAT's solvers and of cadical/kissat come as files (audit 20-B #2)
    from pysat.solvers import Solver

    with Solver(name="cadical153", bootstrap_with=PHP_3_2, with_proof=True) as solver:
        assert solver.solve() is False
        proof = solver.get_proof()
    good = tmp_path / "good.drat"
    good.write_text("".join(f"{line}\n" for line in proof), encoding="ascii")
    assert proof_file_problem(PHP_3_2, str(good)) is None
    lying = tmp_path / "lying.drat"
    lying.write_text("0\n", encoding="ascii")
    assert "dratify rejects the proof" in proof_file_problem(PHP_3_2, str(lying))
    binary = tmp_path / "binary.drat"  # cadical's default format: not read as text
    binary.write_bytes(b"a\x02\x00a\x82\x01\x00")  # the control byte first, not the NUL
    assert proof_file_problem(PHP_3_2, str(binary)) == (
        "dratify cannot read the proof: byte 2 is not text (a binary proof?)"
    )  # (audit 21-C #6: it named the NUL after two control bytes)
    binary.write_bytes(b"a\x02\x04\x00")
    assert "byte 2 is not text" in proof_file_problem(PHP_3_2, str(binary))
    binary.write_bytes(b"1 2 0\n\xc3\xa9 0\n")  # not ASCII
    assert "byte 7 is not text" in proof_file_problem(PHP_3_2, str(binary))
    # small variables make a binary proof all ASCII but for its NULs: it was read as text
    # and rejected for a "bad token" (review 20)
    binary.write_bytes(b"aMOQSU\x00a?OQSU\x00")
    assert proof_file_problem(PHP_3_2, str(binary)) == (
        "dratify cannot read the proof: byte 7 is not text (a binary proof?)"
    )


SMALL = parse_maze(
    "START A B\nGOLD WAND\n3\nSTART TREASURES NEXT A B\n"
    "A TREASURES GOLD NEXT START\nB TREASURES WAND NEXT START\n"
)


def test_decode_and_validate_a_path():
    names = {1: "At(START,0)", 2: "At(A,1)", 3: "At(START,2)", 4: "At(B,3)", 5: "At(B,1)"}
    key = key_from_names(names)
    path, why = decode_path([1, 2, 3, 4, -5], key, "x")
    assert (path, why) == (["START", "A", "START", "B"], None)
    assert path_problem(SMALL, path) is None
    path, why = decode_path([1, 2, 3, 4, 5], key, "x")
    assert path is None and "at A and B at time 1" in why
    assert "treasures not collected: WAND" in path_problem(SMALL, ["START", "A", "START", "A"])
