"""DRUP proofs from dpll, checked by an independent checker (dratify) in RUP-only mode."""

from __future__ import annotations

import random
from pathlib import Path

import dratify
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver as PySATSolver

from dpll import Solver
from dpll.cdcl import CDCLEngine
from dpll.engine import Limits
from dpll.proof import ProofLog
from formats.dimacs import read_dimacs

SATLIB = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "satlib"


def verify(nvars: int, clauses: list[list[int]], proof_text: str) -> dratify.CheckResult:
    """dratify's verdict on a DRUP proof (RAT steps refused: every lemma must be RUP)."""
    body = "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    formula = dratify.parse_dimacs(f"p cnf {nvars} {len(clauses)}\n{body}")
    return dratify.check_proof(formula, proof_text, check_rat=False)


def random_cnf(seed: int, n: int, ratio: float) -> list[list[int]]:
    rng = random.Random(seed)
    return [
        [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), 3)]
        for _ in range(round(n * ratio))
    ]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(10, 60), st.sampled_from([0, 12]))
def test_unsat_proofs_verify(seed: int, n: int, reduce_every: int) -> None:
    clauses = random_cnf(seed, n, 5.5)  # well above the threshold: almost always UNSAT
    options = {"first_reduce": reduce_every, "reduce_inc": 3} if reduce_every else {}
    if reduce_every:  # and restart and walk every few conflicts: proofs must not care
        options.update(luby_unit=2, walk_min_conflicts=0, walk_patience=10**6)
    with Solver(bootstrap_with=clauses, with_proof=True, **options) as s:
        if s.solve():
            return
        lines = s.get_proof()
    assert lines[-1] == "0"
    result = verify(n, clauses, "\n".join(lines) + "\n")
    assert result.ok, result.report()


def test_binary_proof_decodes_to_the_text_proof() -> None:
    clauses = random_cnf(5, 40, 6.0)  # (24 conflicts: a reduction deletes 6 clauses)
    with Solver(bootstrap_with=clauses, with_proof=True, first_reduce=15, reduce_inc=2) as s:
        assert s.solve() is False
        text = s.get_proof()
        binary = s.get_proof_binary()
    assert any(line.startswith("d ") for line in text)  # deletions are in it
    # PySAT's decoder is independent of ours
    assert PySATSolver._proof_bin2text(bytearray(binary)) == text
    assert verify(40, clauses, "\n".join(text) + "\n").ok


def test_a_wrong_proof_is_rejected() -> None:
    # the test of the tests: the checker refuses proofs that skip or corrupt steps
    clauses = random_cnf(9, 30, 6.0)
    with Solver(bootstrap_with=clauses, with_proof=True) as s:
        assert s.solve() is False
        lines = s.get_proof()
    assert len(lines) > 3
    assert verify(30, clauses, "\n".join(lines) + "\n").ok
    assert not verify(30, clauses, "0\n").ok  # propagation alone does not refute it
    first = lines[0].split()
    flipped = " ".join(str(-int(lit)) for lit in first[:-1]) + " 0"
    assert not verify(30, clauses, flipped + "\n0\n").ok


def test_proof_of_an_empty_clause_and_of_top_level_conflicts() -> None:
    with Solver(bootstrap_with=[[1, 2], []], with_proof=True) as s:
        assert s.solve() is False
        assert s.get_proof()[-1] == "0"
    clauses = [[1], [-1, 2], [-2, 3], [-3, -1]]  # refuted by propagation alone
    with Solver(bootstrap_with=clauses, with_proof=True) as s:
        assert s.solve() is False
        assert verify(3, clauses, "\n".join(s.get_proof()) + "\n").ok


@pytest.mark.parametrize("mode", ["cdcl", "classic"])
def test_a_clause_falsified_at_load_logs_the_empty_clause_once(mode: str) -> None:
    clauses = [[1], [-1]]  # the second clause is false as soon as it is added
    with Solver(bootstrap_with=clauses, mode=mode, with_proof=True) as s:
        assert s.solve() is False
        proof = s.get_proof()
    assert proof.count("0") == 1
    assert verify(1, clauses, "\n".join(proof) + "\n").ok


def test_shortened_input_clauses_are_logged() -> None:
    # 1 is a top-level fact, so [-1, 2, 3] is stored as [2, 3]: a lemma the checker sees
    clauses = [[1], [-1, 2, 3], [-2, 3], [-3, 4], [-3, -4]]
    log = ProofLog()
    engine = CDCLEngine(4, clauses, proof=log)
    assert engine.solve([], Limits()) is False
    assert (False, (2, 3)) in log.steps
    assert verify(4, clauses, log.to_text()).ok


def test_incremental_clauses_proof_verifies_against_all_clauses() -> None:
    clauses = random_cnf(21, 35, 4.0)
    with Solver(bootstrap_with=clauses, with_proof=True) as s:
        s.solve(assumptions=[1, 2])
        extra = random_cnf(22, 35, 2.5)
        s.append_formula(extra)
        if s.solve():
            pytest.skip("this instance stayed satisfiable")
        lines = s.get_proof()
    assert verify(35, clauses + extra, "\n".join(lines) + "\n").ok


def satlib_files(family: str, count: int) -> list[Path]:
    folder = SATLIB / family
    if not folder.is_dir():
        pytest.skip(f"SATLIB family {family} not found at {folder} (../shared beside the checkout)")
    return sorted(folder.glob("*.cnf"))[:count]


def test_satlib_uuf50_proofs_verify() -> None:
    for path in satlib_files("uuf50", 10):
        formula = read_dimacs(path)
        with Solver(bootstrap_with=formula, with_proof=True) as s:
            assert s.solve() is False
            text = "\n".join(s.get_proof()) + "\n"
        result = verify(formula.nvars, formula.clauses, text)
        assert result.ok, (path.name, result.report())


def test_pigeonhole_proof_with_many_deletions_verifies() -> None:
    holes = 5
    clauses = [[p * holes + h + 1 for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p in range(holes + 1):
            for q in range(p + 1, holes + 1):
                clauses.append([-(p * holes + h + 1), -(q * holes + h + 1)])
    with Solver(bootstrap_with=clauses, with_proof=True, first_reduce=30, reduce_inc=5) as s:
        assert s.solve() is False
        lines = s.get_proof()
    assert sum(line.startswith("d ") for line in lines) > 10
    assert verify(holes * (holes + 1), clauses, "\n".join(lines) + "\n").ok


def test_classic_mode_proofs_verify() -> None:
    for seed in range(5):
        clauses = random_cnf(seed, 25, 6.0)
        with Solver(bootstrap_with=clauses, mode="classic", with_proof=True) as s:
            if s.solve():
                continue
            lines = s.get_proof()
        assert verify(25, clauses, "\n".join(lines) + "\n").ok


@pytest.mark.parametrize("heuristic", ["course", "random", "two-clause", "jw", "dlis"])
def test_classic_proofs_delete_what_they_no_longer_need(heuristic: str) -> None:
    # without deletions every lemma stayed live to the end, and checking took time in
    # the square of the proof's length: 188 s with dratify for a proof written in 1.4 s
    # (audit 17-A #1). Deleted are the lemmas a new one subsumes: the live ones stay about
    # as many as the search is deep
    for seed in range(20):
        clauses = random_cnf(seed, 60, 5.0)
        with Solver(bootstrap_with=clauses, mode="classic", heuristic=heuristic, seed=seed,
                    with_proof=True) as s:  # fmt: skip
            if s.solve():
                continue
            lines = s.get_proof()
        live, peak, lemmas = 0, 0, 0
        for line in lines:
            deleted = line.startswith("d ")
            live += -1 if deleted else 1
            lemmas += not deleted
            peak = max(peak, live)
        if lemmas <= 61:
            continue  # too short to tell
        assert peak <= 61, (seed, lemmas, peak)
        assert verify(60, clauses, "\n".join(lines) + "\n").ok
        return
    pytest.fail("no hard enough unsatisfiable formula among the seeds")


@pytest.mark.parametrize("mode", ["cdcl", "classic"])
def test_a_proof_file_gets_the_same_proof_as_it_is_found(mode: str) -> None:
    # `satkit solve --proof` streams the proof: a long run's proof used to be held in
    # memory (about 12 bytes of RAM per proof byte, audit 15-A)
    import io

    clauses = random_cnf(7, 40, 5.0)
    with Solver(bootstrap_with=clauses, mode=mode, with_proof=True) as kept:
        assert kept.solve() is False
        lines, binary = kept.get_proof(), kept.get_proof_binary()
    text, raw = io.StringIO(), io.BytesIO()
    with Solver(bootstrap_with=clauses, mode=mode, proof_file=text) as streamed:
        assert streamed.solve() is False and streamed.get_proof() is None
    with Solver(bootstrap_with=clauses, mode=mode, proof_file=raw, binary_proof=True) as packed:
        assert packed.solve() is False and packed.get_proof_binary() is None
    assert text.getvalue() == "\n".join(lines) + "\n" and raw.getvalue() == binary
    assert verify(40, clauses, text.getvalue()).ok


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(12, 30))
def test_unsat_proofs_verify_with_the_huge_clause_path(seed: int, n: int) -> None:
    # HUGE lowered to 4: the input clauses (random 4- and 5-SAT, well above the
    # threshold) are watched by the circular search
    import dpll.cdcl as cdcl

    rng = random.Random(seed)
    clauses = [
        [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), rng.choice((4, 5)))]
        for _ in range(n * 16)
    ]
    saved, cdcl.HUGE = cdcl.HUGE, 4
    try:
        with Solver(bootstrap_with=clauses, with_proof=True, first_reduce=12, reduce_inc=3) as s:
            if s.solve():
                return
            lines = s.get_proof()
    finally:
        cdcl.HUGE = saved
    result = verify(n, clauses, "\n".join(lines) + "\n")
    assert result.ok, result.report()


@pytest.mark.parametrize("mode", ["cdcl", "classic"])
@pytest.mark.parametrize("heuristic", [None, "course"])
def test_an_empty_input_clause_gives_a_proof_of_the_empty_clause(mode, heuristic) -> None:
    # both modes log "0" (classic logged nothing; audit 16-A)
    if mode == "cdcl" and heuristic == "course":
        return
    with Solver(mode, heuristic=heuristic, bootstrap_with=[[1, 2], []], with_proof=True) as s:
        assert s.solve() is False
        assert s.get_proof() == ["0"]
        assert s.get_core() is None


def test_a_learnt_unit_is_logged_once() -> None:
    # `_learn` logged it, and the next simplification logged it again as a top-level fact
    # (valid, but wasted bytes; audit 28-B observation)
    with Solver(bootstrap_with=[[1, 2], [-1, 2]], with_proof=True) as s:
        assert s.solve(assumptions=[-2]) is False
        assert s.get_proof() == ["2 0"]
    repeated = 0
    for path in satlib_files("uuf50", 10):
        with Solver(bootstrap_with=read_dimacs(path), with_proof=True) as s:
            assert s.solve() is False
            units = [line for line in s.get_proof() if len(line.split()) == 2]
            repeated += len(units) - len(set(units))
    assert repeated == 0
