"""Every SATLIB file in ../shared/bench/satlib reads with the clause count its header declares.

The normal suite reads three files per family (first, middle, last) and checks
them against a naive token loop and, where PySAT's reader accepts the file,
against PySAT. The full sweep of all 2,511 files is marked slow; it takes about
5 s on the development machine, so CI runs it too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pysat.formula import CNF

from formats.dimacs import read_dimacs

HEADER = re.compile(rb"^p[ \t]+cnf[ \t]+([0-9]+)[ \t]+([0-9]+)[ \t]*$", re.MULTILINE)
SHARED_SATLIB = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "satlib"


def _sample(root: Path, per_family: int) -> list[str]:
    """First, middle and last file of each family (sorted by name); [] without ../shared."""
    if not root.is_dir():
        return []
    chosen = []
    for family in sorted(p for p in root.iterdir() if p.is_dir()):
        names = sorted(p.name for p in family.glob("*.cnf"))
        picks = {names[(len(names) - 1) * i // (per_family - 1)] for i in range(per_family)}
        chosen += [f"{family.name}/{name}" for name in sorted(picks)]
    return chosen


SAMPLE = _sample(SHARED_SATLIB, per_family=3)


def declared(path: Path) -> tuple[int, int]:
    match = HEADER.search(path.read_bytes())
    assert match is not None, f"{path} has no header"
    return int(match.group(1)), int(match.group(2))


def naive_clauses(path: Path) -> list[list[int]]:
    clauses: list[list[int]] = []
    current: list[int] = []
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if stripped.startswith("%"):
            break
        if not stripped or stripped[0] in "cp":
            continue
        for token in stripped.split():
            if token == "0":
                clauses.append(current)
                current = []
            else:
                current.append(int(token))
    if current:
        clauses.append(current)
    return clauses


@pytest.mark.parametrize("relative", SAMPLE or ["<no satlib>"])
def test_sample_per_family(satlib: Path, relative: str):
    path = satlib / relative
    nvars, nclauses = declared(path)
    formula = read_dimacs(path, strict=True)
    assert len(formula.clauses) == nclauses
    assert formula.nvars == nvars
    assert formula.warnings == []
    assert all(formula.clauses)  # no empty clause, not even from a `%` / `0` trailer
    assert formula.clauses == naive_clauses(path)
    try:
        cnf = CNF(from_file=str(path))
    except ValueError:  # PySAT's C reader rejects the `%` trailer and clauses across lines
        return
    assert formula.clauses == cnf.clauses


def test_the_sample_covers_every_family_and_both_trailer_styles(satlib: Path):
    families = sorted(p.name for p in satlib.iterdir() if p.is_dir())
    assert len(families) >= 40
    assert sorted({relative.split("/")[0] for relative in SAMPLE}) == families
    trailers = [(satlib / r).read_bytes().rstrip().endswith(b"%\n0") for r in SAMPLE]
    assert any(trailers) and not all(trailers)


@pytest.mark.slow
def test_every_satlib_file(satlib: Path):
    paths = sorted(satlib.glob("*/*.cnf"))
    assert len(paths) == 2511
    for path in paths:
        nvars, nclauses = declared(path)
        formula = read_dimacs(path, strict=True)
        assert (len(formula.clauses), formula.nvars) == (nclauses, nvars), path
        assert formula.warnings == [], path
        assert all(formula.clauses), path
