"""The course assignment's Davis–Putnam file formats: DP input (clauses) and DP output (valuation).

DP input (what the front end writes and the DP program reads)::

    1 -2 3        one clause per line: signed atom numbers, no terminating 0
    -1 2
    0             a line holding just 0 ends the clause list
    1 At(START,0) everything after it is back matter, reproduced verbatim
    ...

DP output (what the DP program writes and the back end reads)::

    1 T           every atom 1..max with its value, T or F
    2 F
    0
    1 At(START,0) the back matter, verbatim
    ...

An unsatisfiable output is the line ``0`` followed by the back matter.

What real files contain, and is accepted: a UTF-8 BOM, CRLF line ends,
trailing blanks, right-aligned numbers (`` 12 -3``), blank lines (skipped in
the clause list, kept exactly in the back matter), atoms in any order in a DP
output, a back matter without a final newline.

Two limits of the format, decided here:

- It cannot write an empty clause (that would be an empty line, which real
  readers skip). :func:`dp_input_text` refuses a formula with an empty clause
  (FormatError naming the clause) rather than silently dropping it, because
  that would turn an unsatisfiable formula into a satisfiable one.
- An output whose first line is ``0`` is read as *unsatisfiable*. A formula
  with no atoms at all is satisfiable, yet its DP output is also just ``0``:
  the format cannot tell the two apart, and this reader says unsatisfiable.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import repeat
from operator import contains

from formats.dimacs import (
    MAX_VARIABLES,
    beyond_max_message,
    is_answer_line,
    is_maze_line,
    lists_built_without_gc,
    literal_value,
)
from formats.errors import FormatError, FormatWarning, quoted
from formats.formula import Formula, checked_max_var
from formats.streams import (
    atomic_output,
    bad_byte,
    decode_text,
    display_name,
    read_bytes,
    read_text,
)

_SIGNED_NUMBER = re.compile(r"-?[0-9]+")
_SEPARATOR_LINE = re.compile(r"^[ \t]*0[ \t]*\r?$", re.MULTILINE)
_PLAIN_CLAUSES = re.compile(r"[-0-9 \t\n]*")
_ZERO = re.compile(r"-?0+")


class EmptyClauseError(FormatError):
    """The DP format cannot write a formula with an empty clause; ``clause`` is its 1-based
    index, so that a caller that knows the input file can add the line."""

    def __init__(self, file: str, line: int | None, message: str, clause: int) -> None:
        super().__init__(file, line, message)
        self.clause = clause


@dataclass
class DPOutput:
    """A parsed DP output: the valuation (None when unsatisfiable) and the back matter."""

    valuation: dict[int, bool] | None
    back_matter: str
    warnings: list[FormatWarning]

    @property
    def satisfiable(self) -> bool:
        """True when the output gives a valuation."""
        return self.valuation is not None


def _lines(text: str) -> list[str]:
    """Lines with their line ends kept (BOM dropped). A line ends only at ``\n``, ``\r\n``
    or ``\r``, as for every other reader of these files (``str.splitlines`` would also end
    one at a form feed, a vertical tab or U+2028, and split a clause in two)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return io.StringIO(text, newline="").readlines()


def is_separator_line(line: str) -> bool:
    """Whether ``line`` is the line ``0`` (blanks around it allowed) that ends a DP input's
    clause list or a DP output's valuation, as `parse_dp_input` and `parse_dp_output` find it."""
    return line.strip() == "0"


def _zero_written_otherwise(line: str) -> str | None:
    """The text of a line that holds only zeros but is not the line ``0`` (``00``, ``-0``,
    ``0 0``), else None. Such a line is no separator (the format writes it ``0``, and every
    reader here looks for that line), so where it was surely meant for one, the error is
    given at it."""
    tokens = line.split()
    if tokens and tokens != ["0"] and all(_ZERO.fullmatch(token) for token in tokens):
        return " ".join(tokens)
    return None


def _separator_index(lines: list[str]) -> int | None:
    """Index of the first line that holds just ``0`` (blanks and CR allowed)."""
    for index, line in enumerate(lines):
        if is_separator_line(line):
            return index
    return None


_IS_DIMACS = (
    "a 'p cnf' header: this is DIMACS, not the DP input format "
    "('satkit convert IN -o OUT' turns it into DP input; 'satkit solve' reads it)"
)


_IS_ANSWER = (
    "this is a solver's answer (s/v lines or a MiniSat result), not a DP input: "
    "satkit maze decode ANSWER --cnf CNF reads one"
)

_IS_MAZE = "this is a maze file, not a DP input: satkit maze encode turns it into one"

_IS_PATH = "this is a back end's answer (one line: a walk from START), not a DP input"

_IS_DP_OUTPUT = (
    "an 'n T|F' line: this is a DP output, not a DP input (satkit maze decode reads it)"
)


def _first_filled(lines: list[str]) -> int | None:
    """The number of the first line that is not blank (None: none)."""
    return next((number for number, line in enumerate(lines, start=1) if line.strip()), None)


def _other_kind(lines: list[str]) -> tuple[int, str] | None:
    """Where and what a file that is not a DP input is instead — DIMACS (a ``p cnf``
    header among the clause lines), a solver's answer, a maze file, a back end's path or
    a DP output (its first non-blank line says) — as ``(line number, message)``; None
    when it is none of these."""
    for number, line in enumerate(lines, start=1):
        if line.split()[:2] == ["p", "cnf"]:
            return number, _IS_DIMACS
    first = next(((n, line) for n, line in enumerate(lines, start=1) if line.strip()), None)
    if first is None:
        return None
    number, line = first
    if is_answer_line(line):
        return number, _IS_ANSWER
    if is_maze_line(line) or line.split()[:1] == ["START"]:
        alone = all(not other.strip() for other in lines[number:])
        return number, _IS_PATH if alone else _IS_MAZE
    tokens = line.split()
    if len(tokens) == 2 and tokens[0].isdigit() and tokens[1] in ("T", "F"):
        return number, _IS_DP_OUTPUT
    return None


def _plain_clauses(text: str) -> tuple[list[list[int]], int, int, str] | None:
    """The clause lines of a DP input with nothing to warn about or refuse, read at C
    speed: ``(clauses, highest atom, separator line index, back matter)``; None when
    anything is unusual (CR line ends, blank lines, zeros, leading zeros, big numbers,
    other characters), which `parse_dp_input` then reads line by line with its messages.

    The clause block holds only digits, ``-``, blanks and ``\n``, so the first line
    that is ``0`` between blanks is the one `_separator_index` would find; blanks
    become commas and line ends ``],[``, and ``json.loads`` builds every clause list
    (4.2 million clauses: 11.5 s line by line, about 3 s this way).
    """
    match = _SEPARATOR_LINE.search(text)
    if match is None:
        return None
    block = text[: match.start()]
    if _PLAIN_CLAUSES.fullmatch(block) is None:
        return None
    body = block.replace("\t", " ").replace(" ", ",")
    while ",," in body:  # runs of blanks (right-aligned numbers)
        body = body.replace(",,", ",")
    body = body.replace(",\n", "\n").replace("\n,", "\n").lstrip(",")[:-1]  # (last \n)
    try:
        with lists_built_without_gc():
            clauses = json.loads("[[" + body.replace("\n", "],[") + "]]") if block else []
    except ValueError:  # leading zeros, a lone '-', '1-2': the line loop says which
        return None
    if not all(clauses) or any(map(contains, clauses, repeat(0))):
        return None  # a blank line or a 0 (also '-0'): the line loop says so
    high = max(max(map(max, clauses)), -min(map(min, clauses))) if clauses else 0
    if high > MAX_VARIABLES:
        return None
    end = match.end()
    back_matter = text[end + 1 :] if text.startswith("\n", end) else text[end:]
    return clauses, high, block.count("\n"), back_matter


def parse_dp_input(text: str, name: str = "<string>") -> Formula:
    """Parse DP input: clause lines, a line ``0``, then back matter (kept byte for byte).

    Raises FormatError for a token that is not a signed atom number, a ``0``
    inside a clause line, or a missing ``0`` line. Bytes that are not UTF-8, kept by
    `read_dp_text` in the back matter, give a warning and are written back as they were.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    plain = _plain_clauses(text)
    if plain is not None:
        clauses, high, separator, back_matter = plain
        return _with_back_matter(Formula(nvars=high, clauses=clauses), back_matter, separator, name)
    lines = _lines(text)
    separator = _separator_index(lines)
    if separator is None:
        other = _other_kind(lines)
        if other is not None:
            raise FormatError(name, *other)
        # (a file that is no list of clauses at all is told so at its first word, not at
        # its end, where a missing '0' would be sought: audit 22-B #2)
        bad = next(((number, token) for number, line in enumerate(lines, start=1)
                    for token in line.split() if not _is_int(token)), None)  # fmt: skip
        zero = next(((number, word) for number, line in enumerate(lines, start=1)
                     if (word := _zero_written_otherwise(line))), None)  # fmt: skip
        if zero is not None and (bad is None or zero[0] < bad[0]):
            # (the error pointed at the line after it, or at the file's end: audit 26-A F3)
            raise FormatError(name, zero[0], f"a line {quoted(zero[1])} does not end the "
                              "clause list: the line that ends it is written '0'")  # fmt: skip
        if bad is not None and (bad[0] == _first_filled(lines) or bad_byte(bad[1])):
            raise FormatError(name, bad[0], _no_atom(bad[1]))
        if bad is not None:
            raise FormatError(name, bad[0], f"no line '0' ending the clause list before this "
                              f"line, whose {quoted(bad[1])} is no atom number")  # fmt: skip
        raise FormatError(name, len(lines) or 1, "no line '0' ending the clause list")
    formula = Formula()
    clauses = formula.clauses
    high = 0
    for number, line in enumerate(lines[:separator], start=1):
        tokens = line.split()
        if not tokens:
            formula.warnings.append(
                FormatWarning(name, number, "blank line in the clause list ignored")
            )
            continue
        bad = next((token for token in tokens if not _is_int(token)), None)
        if bad is not None:
            other = _other_kind(lines[:separator])  # (SATLIB files end with % and 0)
            if other is not None:
                raise FormatError(name, *other)
            raise FormatError(name, number, _no_atom(bad))
        try:
            clause = [int(token) for token in tokens]
        except ValueError:  # thousands of digits (perhaps leading zeros): more than int() takes
            clause = [_atom_value(token) for token in tokens]
        top = max(map(abs, clause))
        if top > MAX_VARIABLES:
            pairs = zip(tokens, clause, strict=True)
            big = next(token for token, value in pairs if abs(value) == top)
            raise FormatError(name, number, _too_large(big))
        if clause[-1] == 0 and len(clause) > 1:
            clause.pop()
            formula.warnings.append(
                FormatWarning(name, number, "clause line ends with 0 (DIMACS style); 0 ignored")
            )
        if 0 in clause:
            raise FormatError(name, number, "0 inside a clause line (only the separator line is 0)")
        clauses.append(clause)
        if top > high:
            high = top
    formula.nvars = high
    return _with_back_matter(formula, "".join(lines[separator + 1 :]), separator, name)


def _no_atom(token: str) -> str:
    """The message for a clause-list token that is no signed atom number; a byte that is
    not UTF-8 (kept by `read_dp_text`) is named as the maze, DP output and answer readers
    name it, not shown as the placeholder character that keeps it (audit 26-A F2)."""
    found = bad_byte(token)
    if found is not None:
        return f"not UTF-8 text (byte 0x{found[1]:02x})"
    return f"expected a signed atom number, found {quoted(token)}"


def _with_back_matter(formula: Formula, back_matter: str, separator: int, name: str) -> Formula:
    """``formula`` with the back matter that follows the separator line (index
    ``separator``), warned about when it holds bytes that are not UTF-8."""
    formula.back_matter = back_matter
    formula.back_matter_line = separator + 2
    # (what becomes of the byte is the caller's to say: `dp` and `convert` copy it, maze
    # decode --cnf reads the key around it)
    kept = _kept_byte_warning(back_matter, separator + 2, name)
    if kept is not None:
        formula.warnings.append(kept)
    return formula


def _kept_byte_warning(back_matter: str, first_line: int, name: str) -> FormatWarning | None:
    """The warning for the first byte that is not UTF-8 in ``back_matter`` (kept by
    `read_dp_text`; ``first_line`` is the file line it starts on); None when there is none."""
    if bad_byte(back_matter) is None:
        return None
    for number, line in enumerate(_lines(back_matter), start=first_line):
        found = bad_byte(line)
        if found is not None:
            return FormatWarning(
                name, number, f"the back matter is not UTF-8 text (byte 0x{found[1]:02x})"
            )
    return None


def _atom_value(token: str) -> int:
    """A signed atom number (``-?[0-9]+``) that ``int`` refused (thousands of digits):
    its value, or MAX_VARIABLES + 1 with its sign when it has more digits than that."""
    return literal_value(token.encode("ascii"))


def _too_large(token: str) -> str:
    """The message for an atom number above MAX_VARIABLES (a very long one is cut)."""
    return beyond_max_message("atom", token.encode("ascii"))


def _is_int(token: str) -> bool:
    """A signed atom number in ASCII digits (``int`` alone would also take ``1_0`` or ``١``)."""
    return _SIGNED_NUMBER.fullmatch(token) is not None


def read_dp_input(path: str | os.PathLike[str]) -> Formula:
    """Read a DP input file (``-`` for stdin). Bytes that are not UTF-8 are kept (see
    `parse_dp_input`): the back matter is copied byte for byte, whatever its encoding."""
    return parse_dp_input(read_dp_text(read_bytes(path), display_name(path)), display_name(path))


def read_dp_text(data: bytes, name: str) -> str:
    """A DP file's text, bytes that are not UTF-8 kept (the clause part must be digits
    anyway; its tokens are errors there with their line)."""
    return decode_text(data, name, keep_bad_bytes=True)


def dp_clause_line(path: str | os.PathLike[str], index: int) -> int | None:
    """The line of clause ``index`` (1-based) of a DP input file, found by reading it again
    (blank lines in the clause list are skipped, as the reader skips them): for messages
    about a clause of a parsed formula, on the error path only. None for ``-``, an
    unreadable file, or no such clause."""
    if os.fspath(path) == "-" or index < 1:
        return None
    try:
        lines = _lines(read_dp_text(read_bytes(path), display_name(path)))
    except FormatError:
        return None
    seen = 0
    for number, line in enumerate(lines, start=1):
        if is_separator_line(line):
            return None
        if line.strip():
            seen += 1
            if seen == index:
                return number
    return None


def dp_input_text(
    formula: Formula, source: str = "<formula>", *, literals_checked: bool = False
) -> str:
    """The DP input text of ``formula``: clause lines, ``0``, the back matter verbatim.

    Raises EmptyClauseError, a FormatError naming ``source`` (where the formula
    came from) and the clause's index, if a clause is empty: the format cannot
    express it; ValueError for a literal no file can hold (`checked_max_var`: a clause
    ``[0]`` would be the line that ends the clause list); ``literals_checked``: the clauses
    come from satkit's readers, so that check is skipped (`satkit convert`).
    """
    if not literals_checked:
        checked_max_var(formula.clauses)
    out = []
    for index, clause in enumerate(formula.clauses, start=1):
        if not clause:
            raise EmptyClauseError(
                source,
                None,
                f"clause {index} is empty: the assignment's DP format cannot express an empty "
                "clause (the formula is unsatisfiable as it stands)",
                index,
            )
        out.append(" ".join(map(str, clause)))
    out.append("0")
    return "\n".join(out) + "\n" + (formula.back_matter or "")


def write_dp_input(
    formula: Formula,
    path: str | os.PathLike[str],
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    source: str = "<formula>",
    literals_checked: bool = False,
) -> None:
    """Write ``formula`` in the DP input format to ``path`` (``-`` = stdout), atomically
    (``literals_checked`` as for `dp_input_text`)."""
    text = dp_input_text(formula, source, literals_checked=literals_checked)
    with atomic_output(path, inputs=tuple(inputs)) as handle:
        handle.write(text)


def parse_dp_output(text: str, name: str = "<string>") -> DPOutput:
    """Parse a DP output: ``n T|F`` lines, ``0``, back matter; or ``0`` + back matter (UNSAT).

    Non-conforming files are errors with their line: a value other than T/F
    (some programs print ``N`` for an unassigned atom), an atom given twice,
    a ``NO SOLUTION`` line (the format says ``0``), a line ``00`` or ``-0`` (the
    line is written ``0``), a missing ``0`` line. Bytes that are not UTF-8, kept by
    `formats.answers.read_answer_text` in the back matter (which `satkit dp` copies byte
    for byte), give a warning: only the key lines that name atoms are read, and the key's
    reader refuses such a byte in those.
    """
    lines = _lines(text)
    warnings: list[FormatWarning] = []
    valuation: dict[int, bool] = {}
    for number, line in enumerate(lines, start=1):
        tokens = line.split()
        if not tokens:
            warnings.append(FormatWarning(name, number, "blank line in the valuation ignored"))
            continue
        if tokens == ["0"]:
            back_matter = "".join(lines[number:])
            kept = _kept_byte_warning(back_matter, number + 1, name)  # (what becomes of
            # the byte is the caller's: a key's reader refuses it where it names an atom)
            if kept is not None:
                warnings.append(kept)
            result = valuation if valuation else None
            return DPOutput(result, back_matter, warnings)
        zero = _zero_written_otherwise(line)
        if zero is not None:
            raise FormatError(name, number, f"a line {quoted(zero)} does not end the "
                              "valuation: the line that ends it is written '0'")  # fmt: skip
        if " ".join(tokens).upper() == "NO SOLUTION":
            raise FormatError(
                name,
                number,
                "'NO SOLUTION' is not DP output: an unsatisfiable result is a line '0' "
                "followed by the back matter",
            )
        atom_text = tokens[0]
        if (
            len(tokens) != 2
            or not _is_int(atom_text)
            or atom_text.startswith("-")
            or not atom_text.strip("0")
        ):
            shown = quoted(line.rstrip("\r\n"))
            raise FormatError(name, number, f"expected 'ATOM T' or 'ATOM F', found {shown}")
        try:
            atom = int(atom_text)
        except ValueError:
            atom = _atom_value(atom_text)
        if atom > MAX_VARIABLES:
            raise FormatError(name, number, _too_large(atom_text))
        value = tokens[1]
        if value not in ("T", "F"):
            raise FormatError(
                name, number, f"atom {atom} has value {quoted(value)}: every atom must be T or F"
            )
        if atom in valuation:
            raise FormatError(name, number, f"atom {atom} is given twice")
        valuation[atom] = value == "T"
    raise FormatError(name, len(lines) or 1, "no line '0' after the valuation")


def read_dp_output(path: str | os.PathLike[str]) -> DPOutput:
    """Read a DP output file (``-`` for stdin)."""
    return parse_dp_output(read_text(path), display_name(path))


def dp_output_text(valuation: dict[int, bool] | None, back_matter: str) -> str:
    """The DP output text: atoms 1..max as ``n T``/``n F``, ``0``, back matter verbatim.

    ``valuation`` None means unsatisfiable: just ``0`` and the back matter.
    Atoms missing from the valuation (between 1 and the largest) are written F. A back
    matter whose last line has no line end gets one (its own kind: LF, CRLF or CR), as
    the course's DP programs print it line by line: their outputs in ../shared/compat
    end so where the input did not (audit 22-B #1).
    """
    if back_matter and not back_matter.endswith(("\n", "\r")):
        back_matter += "\r\n" if "\r\n" in back_matter else "\r" if "\r" in back_matter else "\n"
    if valuation is None:
        return "0\n" + back_matter
    top = max(valuation, default=0)
    lines = [f"{atom} {'T' if valuation.get(atom, False) else 'F'}" for atom in range(1, top + 1)]
    lines.append("0")
    return "\n".join(lines) + "\n" + back_matter


def write_dp_output(
    valuation: dict[int, bool] | None,
    back_matter: str,
    path: str | os.PathLike[str],
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> None:
    """Write a DP output to ``path`` (``-`` = stdout), atomically."""
    text = dp_output_text(valuation, back_matter)
    with atomic_output(path, inputs=tuple(inputs)) as handle:
        handle.write(text)
