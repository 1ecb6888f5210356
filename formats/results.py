"""Solver result formats: SAT-competition output (c/s/v lines) and MiniSat's result file.

SAT-competition output (minisat's competition mode, cadical, kissat, picosat,
``satkit solve``)::

    c any comment
    s SATISFIABLE            exactly once: SATISFIABLE, UNSATISFIABLE or UNKNOWN
    v 1 -2 3 -4 0            value lines, each at most 4096 characters,
                             the last one ending in 0

No ``s`` line at all is read as UNKNOWN: cadical prints only ``c UNKNOWN``
when a limit stops it (that line is then the status line).

MiniSat's result file (``minisat in.cnf out.txt``)::

    SAT                      or UNSAT, or INDET
    1 -2 3 -4 0              only after SAT
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from formats.dimacs import MAX_VARIABLES, beyond_max_message, comment_lines, literal_value
from formats.errors import FormatError, quoted
from formats.formula import checked_max_var
from formats.streams import text_lines

STATUSES = ("SAT", "UNSAT", "UNKNOWN")
_COMPETITION_WORDS = {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT", "UNKNOWN": "UNKNOWN"}
_MINISAT_WORDS = {"SAT": "SAT", "UNSAT": "UNSAT", "INDET": "UNKNOWN"}
MAX_VALUE_LINE = 4096
_LITERAL = re.compile(r"-?[0-9]+")  # ASCII only: int() would also take '1_0' and '١'


@dataclass
class SolverResult:
    """What a solver answered: ``status`` is SAT, UNSAT or UNKNOWN; ``model`` the literals
    it printed (None when it printed none); ``comments`` its ``c`` lines, without ``c ``;
    ``status_line`` the line that says the status, when it was read from a file (None
    when no line says it, or for a result made in code)."""

    status: str
    model: list[int] | None = None
    comments: list[str] = field(default_factory=list)
    status_line: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, not {self.status!r}")

    def valuation(self) -> dict[int, bool]:
        """The model as ``{variable: value}`` (variables the solver left out are absent)."""
        return {abs(lit): lit > 0 for lit in self.model or ()}


def _literals(tokens: list[str], name: str, number: int) -> list[int]:
    for token in tokens:
        if _LITERAL.fullmatch(token) is None:
            raise FormatError(name, number, f"expected a literal, found {quoted(token)}")
    try:
        values = [int(token) for token in tokens]
    except ValueError:  # thousands of digits (perhaps leading zeros): more than int() takes
        values = [literal_value(token.encode("ascii")) for token in tokens]
    if values and max(max(values), -min(values)) > MAX_VARIABLES:
        pairs = zip(tokens, values, strict=True)
        big = next(token for token, value in pairs if abs(value) > MAX_VARIABLES)
        raise FormatError(name, number, beyond_max_message("literal", big.encode("ascii")))
    return values


def _check_model(model: list[int], name: str, starts: list[int], lines: list[int]) -> None:
    """Raise FormatError if ``model`` holds a literal and its negation. The model was read
    from ``lines`` (file line numbers), the one at ``lines[i]`` from ``model[starts[i]]``
    on: the error names the line of the second literal of the pair (and of the first)."""
    if len(set(map(abs, model))) == len(set(model)):
        return
    first_at: dict[int, int] = {}
    for index, lit in enumerate(model):
        if -lit in first_at:
            line = lines[bisect_right(starts, index) - 1]
            other = lines[bisect_right(starts, first_at[-lit]) - 1]
            where = "" if other == line else f" ({-lit} is on line {other})"
            raise FormatError(
                name, line, f"model contradicts itself: both {lit} and {-lit}{where}"
            )
        first_at.setdefault(lit, index)


def parse_competition(text: str, name: str = "<string>") -> SolverResult:
    """Read SAT-competition output (see the module docstring)."""
    status: str | None = None
    status_line = 0
    said_unknown = 0
    comments: list[str] = []
    model: list[int] | None = None
    closed = False
    last_v = 0
    starts: list[int] = []  # where each value line's literals begin in the model
    v_lines: list[int] = []
    for number, raw in enumerate(text_lines(text.lstrip("\ufeff")), start=1):
        line = raw.strip()
        if not line:
            continue
        # the line letter, then a blank or a tab (as in DIMACS) or nothing
        kind, rest = (line[:1], line[2:]) if line[1:2] in ("", " ", "\t") else ("", line)
        if kind == "c":
            comments.append(rest)
            if not said_unknown and rest.strip() == "UNKNOWN":
                said_unknown = number  # (cadical's status when no `s` line comes: its line)
        elif kind == "s":
            if status is not None:
                message = f"a second 's' line (the first is line {status_line})"
                raise FormatError(name, number, message)
            word = rest.strip()
            if word not in _COMPETITION_WORDS:
                known = "(SATISFIABLE, UNSATISFIABLE, UNKNOWN)"
                raise FormatError(name, number, f"unknown status {quoted(word)} {known}")
            status, status_line = _COMPETITION_WORDS[word], number
        elif kind == "v":
            if closed:
                raise FormatError(name, number, "value line after the terminating 0")
            values = _literals(rest.split(), name, number)
            if 0 in values:
                if values.index(0) != len(values) - 1:
                    raise FormatError(name, number, "0 before the end of the value lines")
                values.pop()
                closed = True
            if model is None:
                model = []
            starts.append(len(model))
            v_lines.append(number)
            model.extend(values)
            last_v = number
        else:
            shown = line if len(line) <= 40 else line[:40] + "…"
            raise FormatError(name, number, f"expected a 'c', 's' or 'v' line, found {shown!r}")
    if model is not None:
        if status != "SAT":
            raise FormatError(name, last_v, "value lines without 's SATISFIABLE'")
        if not closed:
            raise FormatError(name, last_v, "value lines do not end with 0")
        _check_model(model, name, starts, v_lines)
    return SolverResult(status or "UNKNOWN", model, comments, status_line or said_unknown or None)


def _writable_model(result: SolverResult) -> None:
    """ValueError for a model literal no answer line can hold (a 0 would end it early)."""
    if result.model:
        try:
            checked_max_var([result.model])
        except ValueError as exc:
            raise ValueError(f"the model {str(exc).removeprefix('clause 1 ')}") from None


def competition_text(result: SolverResult) -> str:
    """SAT-competition output for ``result``: ``c`` lines, one ``s`` line, wrapped ``v`` lines."""
    words = {"SAT": "SATISFIABLE", "UNSAT": "UNSATISFIABLE", "UNKNOWN": "UNKNOWN"}
    _writable_model(result)
    out = [line[:-1] for comment in result.comments for line in comment_lines(comment)]
    out.append(f"s {words[result.status]}")
    if result.status == "SAT" and result.model is not None:
        line = "v"
        for token in [*map(str, result.model), "0"]:
            if len(line) + 1 + len(token) > MAX_VALUE_LINE:
                out.append(line)
                line = "v"
            line += " " + token
        out.append(line)
    return "\n".join(out) + "\n"


def parse_minisat_result(text: str, name: str = "<string>") -> SolverResult:
    """Read MiniSat's result file: ``SAT`` + a model line ending in 0, ``UNSAT`` or ``INDET``."""
    lines = [(n, raw.strip()) for n, raw in enumerate(text_lines(text.lstrip("\ufeff")), 1)]
    lines = [(n, line) for n, line in lines if line]
    if not lines:
        raise FormatError(name, 1, "empty result file (expected SAT, UNSAT or INDET)")
    number, word = lines[0]
    if word not in _MINISAT_WORDS:
        raise FormatError(name, number, f"expected SAT, UNSAT or INDET, found {quoted(word)}")
    status = _MINISAT_WORDS[word]
    if status != "SAT":
        if len(lines) > 1:
            raise FormatError(name, lines[1][0], f"unexpected line after {word}")
        return SolverResult(status, status_line=number)
    if len(lines) == 1:
        return SolverResult("SAT", None, status_line=number)
    model: list[int] = []
    starts: list[int] = []
    model_lines: list[int] = []
    for number, line in lines[1:]:
        if model and model[-1] == 0:
            raise FormatError(name, number, "line after the model's terminating 0")
        starts.append(len(model))
        model_lines.append(number)
        model.extend(_literals(line.split(), name, number))
    last = lines[-1][0]
    if not model or model[-1] != 0:
        raise FormatError(name, last, "model line does not end with 0")
    model.pop()
    if 0 in model:
        raise FormatError(name, last, "0 inside the model line")
    _check_model(model, name, starts, model_lines)
    return SolverResult("SAT", model, status_line=lines[0][0])


def minisat_result_text(result: SolverResult) -> str:
    """MiniSat's result file for ``result``."""
    _writable_model(result)
    if result.status == "SAT":
        literals = " ".join(map(str, result.model or []))
        return "SAT\n" + (literals + " 0" if literals else "0") + "\n"
    return ("UNSAT" if result.status == "UNSAT" else "INDET") + "\n"


_SCREEN_VERDICTS = ("SATISFIABLE", "UNSATISFIABLE", "INDETERMINATE")


def screen_output_line(text: str) -> int | None:
    """The line on which MiniSat's screen output (its standard output, not its result
    file) shows itself, or None: its bare last line ``SATISFIABLE`` / ``UNSATISFIABLE`` /
    ``INDETERMINATE``, or its ``WARNING: for repeatability …`` / ``[ Problem Statistics ]``
    banner. That output holds no model: ``minisat IN.cnf RESULT`` writes one to RESULT.
    ``c`` lines are skipped: Glucose and other MiniSat-based solvers print the same banner
    as a comment of their SAT-competition output, which is a valid answer.

    >>> screen_output_line("WARNING: for repeatability, setting FPU …\\n====\\nSATISFIABLE\\n")
    1
    >>> screen_output_line("s SATISFIABLE\\nv 1 0\\n") is None
    True
    """
    for number, raw in enumerate(text_lines(text.lstrip("\ufeff")), start=1):
        line = raw.strip()
        if line.startswith("c"):
            continue
        if (
            line in _SCREEN_VERDICTS
            or line.startswith("WARNING: for repeatability")
            or "[ Problem Statistics ]" in line
        ):
            return number
    return None


def screen_output_error(text: str, name: str) -> FormatError | None:
    """The error to raise when ``text`` is MiniSat's screen output (see `screen_output_line`)."""
    number = screen_output_line(text)
    if number is None:
        return None
    return FormatError(
        name,
        number,
        "this is MiniSat's screen output, which holds no model: decode the result file that "
        "`minisat IN.cnf RESULT` writes",
    )


_SOLVER_ERROR = re.compile(r"(?:\S+: error: |\S+:[0-9]+: |\*\*\* [^\s:]+: )\S.*")
"""A solver's error message: picosat prints ``FILE:LINE: message`` on stdout and exits 0,
and so ``*** picosat: can not read input file 'X'``; cadical prints ``cadical: error:
FILE:LINE: message`` (NOTES section 2)."""


def solver_error(text: str, name: str) -> FormatError | None:
    """The error to raise when ``text`` starts with a solver's error message instead of an
    answer (no answer or DP output line looks like one), else None."""
    for number, raw in enumerate(text_lines(text.lstrip("\ufeff")), start=1):
        line = raw.strip()
        if line:
            if _SOLVER_ERROR.fullmatch(line) is None:
                return None
            shown = line if len(line) <= 80 else line[:80] + "…"
            return FormatError(
                name, number, f"this is a solver's error message, not an answer: {shown}"
            )
    return None


def not_an_answer(text: str, name: str) -> FormatError | None:
    """The error to raise when ``text`` is no answer at all: MiniSat's screen output
    (`screen_output_error`) or a solver's error message (`solver_error`); else None."""
    return screen_output_error(text, name) or solver_error(text, name)


_SCREEN_STATUS = {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT", "INDETERMINATE": "UNKNOWN"}


def _result_then_screen(text: str, name: str) -> SolverResult | None:
    """The result file at the head of ``minisat IN.cnf /dev/stdout | …``'s stream, or None
    when the text is not one followed by MiniSat's screen output.

    Into a pipe, MiniSat's result file (written and closed first) comes before its
    screen output (flushed at exit): ``SAT``, the model line, then the banner down to
    the ``SATISFIABLE`` verdict, which must agree with the result's status."""
    lines = text_lines(text.lstrip("\ufeff"))
    first = next((line.strip() for line in lines if line.strip()), "")
    if first not in _MINISAT_WORDS:
        return None
    screen = screen_output_line(text)
    if screen is None:
        return None
    result = parse_minisat_result("\n".join(lines[: screen - 1]), name)
    last = max(n for n, line in enumerate(lines, start=1) if line.strip())
    verdict = lines[last - 1].strip()
    if _SCREEN_STATUS.get(verdict) != result.status:
        raise FormatError(
            name, last, f"MiniSat's screen output ends in {quoted(verdict)}, but its result "
            f"file above it says {first}",
        )  # fmt: skip
    return result


def parse_result(text: str, name: str = "<string>") -> SolverResult:
    """Read either format: MiniSat's when the first non-blank line is SAT/UNSAT/INDET.

    MiniSat's screen output and a solver's error message are refused with a message
    saying so (`not_an_answer`), except after a result file: ``minisat IN.cnf
    /dev/stdout`` into a pipe writes the result, then its screen output, which is skipped.
    """
    after_screen = _result_then_screen(text, name)
    if after_screen is not None:
        return after_screen
    refused = not_an_answer(text, name)
    if refused is not None:
        raise refused
    for raw in text_lines(text.lstrip("\ufeff")):
        line = raw.strip()
        if line:
            if line in _MINISAT_WORDS:
                return parse_minisat_result(text, name)
            break
    return parse_competition(text, name)
