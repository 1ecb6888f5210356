"""Checks that share no code with any solver: models against the input clauses, DRUP proofs
with dratify (an independent checker), decoded maze paths against the maze.

A solver's SAT answer is only believed once :func:`model_problem` finds every
input clause satisfied by a plain loop over the clauses as read from the file;
an UNSAT answer is checked when its solver gives a proof (ours, PySAT's that trace
one, CaDiCaL's and Kissat's proof files): dratify must verify it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from formats.errors import FormatError
from maze.decoder import path_from_valuation
from maze.key import Key
from maze.model import Maze
from maze.validator import path_problems


class CheckerMissing(RuntimeError):
    """The proof checker (dratify, in the ``test`` extra) is not installed."""


def model_problem(
    clauses: Sequence[Sequence[int]], model: Sequence[int] | None, nvars: int | None = None
) -> str | None:
    """Why ``model`` is not a model of ``clauses`` over variables 1..``nvars`` (None
    when it is).

    A model is a list of literals; it must not hold a literal and its
    negation, nor (when ``nvars`` is given) a variable above ``nvars``, and every
    clause must contain one of its literals. Variables the model leaves out satisfy
    nothing (partial models are allowed).

    >>> model_problem([[1, 2], [-1]], [-1, 2]) is None
    True
    >>> model_problem([[1, 2], [-1]], [1, 2])
    'clause 2 is false: -1 0'
    >>> model_problem([[1, 2], [-1]], [-1, 2, 3], nvars=2)
    'the model gives variable 3 a value, but the formula has 2 variables'
    """
    if model is None:
        return "the solver said SAT but gave no model"
    true: set[int] = set()
    for lit in model:
        if -lit in true:
            return f"the model holds both {lit} and {-lit}"
        true.add(lit)
    if nvars is not None:
        beyond = next((lit for lit in model if not -nvars <= lit <= nvars), None)
        if beyond is not None:  # an off-by-N numbering bug, say
            return (
                f"the model gives variable {abs(beyond)} a value, but the formula has "
                f"{nvars} variable{'' if nvars == 1 else 's'}"
            )
    for number, clause in enumerate(clauses, start=1):
        for lit in clause:
            if lit in true:
                break
        else:
            shown = " ".join(map(str, clause))
            return f"clause {number} is false: {shown + ' 0' if shown else '0 (the empty clause)'}"
    return None


def load_checker() -> Any:
    """Import dratify, or raise :class:`CheckerMissing` with the way to install it."""
    try:
        import dratify
    except ImportError:
        raise CheckerMissing(
            "checking proofs needs dratify: pip install 'dimacs-satkit[test]'"
        ) from None
    return dratify


def proof_problem(clauses: Sequence[Sequence[int]], proof: Sequence[str]) -> str | None:
    """Why the DRUP ``proof`` (text lines) does not refute ``clauses`` (None when dratify
    verifies it). Raises :class:`CheckerMissing` without dratify."""
    return _text_problem(clauses, "\n".join(proof) + "\n" if proof else "")


def _text_problem(clauses: Sequence[Sequence[int]], text: str) -> str | None:
    """Why the DRAT proof ``text`` does not refute ``clauses`` (None when dratify verifies it)."""
    dratify = load_checker()
    from_dimacs = dratify.from_dimacs
    cnf = dratify.CNF()
    for clause in clauses:
        cnf.add([from_dimacs(lit) for lit in clause])
    try:
        result = dratify.check_proof(cnf, text)
    except ValueError as exc:
        return f"dratify cannot read the proof: {exc}"
    if result.ok:
        return None
    where = f" (step {result.failed_step})" if result.failed_step >= 0 else ""
    return f"dratify rejects the proof{where}: {result.reason}"


def proof_file_problem(clauses: Sequence[Sequence[int]], path: str) -> str | None:
    """Why the text DRAT proof in the file at ``path`` does not refute ``clauses`` (None when
    dratify verifies it), as :func:`proof_problem`. A file that is not ASCII text (a binary
    proof, say) is not read as one. Raises OSError when the file cannot be read."""
    with open(path, "rb") as handle:
        data = handle.read()
    # the first byte that is no printable ASCII or white space: a binary proof of small
    # variables is ASCII but for its NULs and control bytes (the NUL alone was named,
    # after two control bytes: audit 21-C #6)
    bad = _NOT_TEXT.search(data)
    if bad is not None:
        where = bad.start() + 1
        return f"dratify cannot read the proof: byte {where} is not text (a binary proof?)"
    text = data.decode("ascii")
    del data  # the text alone is big enough
    return _text_problem(clauses, text)


_NOT_TEXT = re.compile(rb"[^\t\n\r\x0b\x0c\x20-\x7e]")


def decode_path(model: Sequence[int], key: Key, name: str) -> tuple[list[str] | None, str | None]:
    """The walk a model describes through ``key``'s At atoms, or (None, why not)."""
    valuation = {abs(lit): lit > 0 for lit in model}
    try:
        return path_from_valuation(valuation, key, name), None
    except FormatError as exc:
        return None, exc.message


def path_problem(maze: Maze, path: Sequence[str]) -> str | None:
    """Why ``path`` is not a valid walk of the maze's K moves (None when it is)."""
    problems = path_problems(maze, path)
    return "; ".join(problems) if problems else None
