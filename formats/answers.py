"""Another solver's answer to a CNF we wrote: read its text, tell its kind, check it fits.

Shared by every command that decodes what an external solver printed (``maze decode``,
``puzzle solve --answer``): the answer is either a solver result (SAT-competition
``s``/``v`` lines, or a MiniSat result file; see `formats.results`) or the
assignment's DP output. Before it is decoded it must fit the CNF it claims to answer:
the header the solver says it read (CaDiCaL and Kissat say so), the variables the
model names, and every clause true.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence

from formats.assignment import DPOutput, is_separator_line, parse_dp_output
from formats.detect import parse_detected
from formats.dimacs import literal_for_message, literal_magnitude
from formats.errors import FormatError
from formats.results import not_an_answer
from formats.streams import bad_byte, decode_text, read_bytes, text_lines

_SOLVED_HEADER = re.compile(r"(?:found|parsed) 'p cnf ([0-9]+) ([0-9]+)' header")
"""The header a solver says it read, in a ``c`` line: CaDiCaL's ``found 'p cnf 72 334'
header`` (without -q), Kissat's ``parsed 'p cnf 72 334' header``."""


def looks_like_result(text: str) -> bool:
    """Whether the text is a solver result (``c``/``s``/``v`` lines, or MiniSat's SAT,
    UNSAT or INDET first) rather than the assignment's DP output."""
    for line in text_lines(text):
        stripped = line.strip()
        if not stripped:
            continue
        return stripped[0] in "csv" or stripped in ("SAT", "UNSAT", "INDET")
    return False


def formula_given_as_answer(
    text: str, name: str, cnf_hint: str, dp_hint: str
) -> FormatError | None:
    """The error to give when an answer no reader takes is in fact a formula: a DIMACS CNF
    (``this is a CNF, not a solver's answer: CNF_HINT``) or the assignment's DP input
    (``this is a DP input, not a DP output: DP_HINT``); None when it is neither. Read as
    `formats.detect` reads a CNF; without a ``p cnf`` header, only clauses that look like
    a formula's (several, one of two literals or more, a negative literal): a line of
    literals is as much a MiniSat model that lost its SAT line, and ``1 1``/``2 0`` lines a
    DP output writing its values as numbers (review 28 #2), whose reader's error says more."""
    try:
        formula, kind = parse_detected(text.encode("utf-8", "surrogateescape"), name)
    except FormatError:
        return None
    clauses = formula.clauses
    if formula.header_line is None and not (
        len(clauses) > 1
        and any(len(c) > 1 for c in clauses)
        and any(lit < 0 for c in clauses for lit in c)
    ):
        return None
    if kind == "dimacs":
        line = formula.header_line or _first_data_line(text)
        return FormatError(name, line, f"this is a CNF, not a solver's answer: {cnf_hint}")
    message = f"this is a DP input, not a DP output: {dp_hint}"
    return FormatError(name, _first_data_line(text), message)


def _first_data_line(text: str) -> int | None:
    """The number of the first line that is neither blank nor a ``c`` comment."""
    for number, line in enumerate(text_lines(text), start=1):
        words = line.split()
        if words and not words[0].startswith("c"):
            return number
    return None


def read_answer_text(path: str | os.PathLike[str], name: str) -> str:
    """The answer file's text. Empty (or blank) is an error. A byte that is not UTF-8 is
    an error naming its line, except on a solver's ``c`` lines, which satkit does not
    use (cadical and kissat quote the CNF's file name there, in whatever encoding the
    name has), and in a DP output's back matter, after its line ``0``: `satkit dp` copies
    that byte for byte, whatever its encoding, and `parse_dp_output` warns about such a
    byte (the key's reader refuses it only in a line naming an atom: audit 26-A F1)."""
    text = decode_text(read_bytes(path), name, keep_bad_bytes=True)
    if not text.strip():
        raise FormatError(name, 1, "empty input: no answer to decode")
    if bad_byte(text) is None:
        return text
    result = looks_like_result(text)
    for number, line in enumerate(text_lines(text), start=1):
        if not result and is_separator_line(line):
            break
        found = bad_byte(line)
        if found is not None and not (result and line.lstrip().startswith("c")):
            raise FormatError(name, number, f"not UTF-8 text (byte 0x{found[1]:02x})")
    return text


def read_dp_answer(text: str, name: str) -> DPOutput:
    """The answer as the assignment's DP output; when it is none, the error says what it is
    instead if it can (`formats.results.not_an_answer`: `minisat IN.cnf > OUT` saves
    MiniSat's screen output, a natural mistake), else the DP reader's error."""
    try:
        return parse_dp_output(text, name)
    except FormatError:
        refused = not_an_answer(text, name)
        if refused is not None:
            raise refused from None
        raise


def check_solved_header(
    comments: Sequence[str], nvars: int, nclauses: int, name: str, cnf: str
) -> None:
    """FormatError when the solver's comments name the header it read and that header has
    another clause count than ``nclauses`` or more variables than ``nvars`` (those of
    ``cnf``, the CNF the answer should be for; fewer variables pass, since a CNF read
    leniently counts the variables its clauses use beyond its header): an UNSAT answer
    of another CNF would otherwise pass unchecked (audit 21-B #3). MiniSat's result file
    says nothing of the sort: its answers cannot be checked so. Numbers of thousands of
    digits (more than ``int`` takes) are compared and shown as the DIMACS reader does."""
    for comment in comments:
        found = _SOLVED_HEADER.search(comment)
        if found is None:
            continue
        variables, clauses = (group.encode("ascii") for group in found.groups())
        # (a count of more than MAX_VARIABLES's digits is MAX_VARIABLES + 1 here: no CNF
        # that fits in memory has that many clauses)
        if literal_magnitude(clauses) != nclauses or literal_magnitude(variables) > nvars:
            read = f"{literal_for_message(variables)} {literal_for_message(clauses)}"
            raise FormatError(
                name, None, f"the solver read 'p cnf {read}', and {cnf} is "
                f"'p cnf {nvars} {nclauses}': this answer is for another CNF",
            )  # fmt: skip
        return


def check_model(
    clauses: Sequence[Sequence[int]],
    valuation: Mapping[int, bool],
    file: str,
    nvars: int | None = None,
    source: Callable[[int], str] | None = None,
) -> None:
    """Raise FormatError unless every clause has a true literal under ``valuation``, and
    (when ``nvars`` is given) the valuation names no variable above ``nvars``.

    An atom the valuation leaves out satisfies nothing (partial models are allowed).
    ``source``, when given, says where clause number N (1-based) came from; the error
    quotes it (``the hint next_to(…)``).
    """
    top = max(valuation, default=0)
    if nvars is not None and top > nvars:
        # (a model of another CNF that happened to satisfy this one passed: crosscheck
        # refuses it as an invalid model, audit 21-B #2)
        raise FormatError(
            file, None, f"the model gives variable {top} a value, but the CNF has {nvars} "
            "variables: it is for another CNF",
        )  # fmt: skip
    true = {atom if value else -atom for atom, value in valuation.items()}
    isdisjoint = true.isdisjoint
    for number, clause in enumerate(clauses, start=1):
        if isdisjoint(clause):
            shown = " ".join(map(str, clause)) or "(empty clause)"
            origin = f" ({source(number)})" if source is not None else ""
            unset = [abs(lit) for lit in clause if abs(lit) not in valuation]
            why = ""
            if unset:  # an answer for another CNF (another encoding), or one cut short
                why = (
                    f": the answer gives variable {unset[0]} no value (it names variables up to"
                    f" {top}): it is for another CNF, or cut short"
                )
            raise FormatError(
                file,
                None,
                f"the model does not satisfy clause {number} of the CNF{origin}: {shown}{why}",
            )
