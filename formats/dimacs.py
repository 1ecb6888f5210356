"""DIMACS CNF: a streaming, line-numbered reader (lenient or strict) and an atomic writer.

Reading rules (see README "DIMACS as satkit reads it"):

- ``c`` lines are comments anywhere; ``c var N NAME`` names variable N and
  ``c back-matter "…"`` carries the assignment format's back matter (JSON
  string, one line each), so that conversions are lossless.
- ``p cnf V C`` (runs of blanks and tabs allowed) may appear once, before the
  first clause. Clauses are runs of literals ended by ``0``; newlines are not
  separators, so a clause may span lines and a line may hold several clauses.
- A line starting with ``%`` (SATLIB) ends the input: what follows is ignored (with a
  warning, an error when strict, unless it is SATLIB's ``0``, blank lines and comments).
- A ``0`` with no literals before it is a real empty clause and is kept.
- A last clause without its ``0`` is accepted with a warning (error if strict).
- A literal above MAX_VARIABLES (2**31 - 1, what every solver can index) is
  an error in both modes; a ``c var N NAME`` with such an N is a plain comment.
- A comment that is not UTF-8 is kept with its bad bytes replaced (U+FFFD)
  and a warning (error if strict): its bytes do not change the formula.
- Lenient (default): header mismatches are warnings and the variable count is
  max(declared, used). Strict: header mismatches, a missing header and literals
  above the declared count are errors.

The hot path reads the text in blocks of whole lines and turns each block into
integers with ``str.split`` and ``map(int, …)``; lines are only looked at one
by one in blocks that hold comments or something invalid.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import io
import json
import os
import re
import stat
from collections.abc import Iterable, Iterator, Sequence

from formats.errors import FormatError, FormatWarning, count, quoted
from formats.formula import MAX_VARIABLES as MAX_VARIABLES
from formats.formula import Formula, checked_max_var
from formats.streams import (
    STDIO,
    atomic_output,
    bad_byte,
    display_name,
    iter_byte_blocks,
    lone_cr_line_ends,
    named_dimacs,
)

BLOCK_SIZE = 1 << 20
"""Bytes per parsing block (cut at a line end)."""

_MAX_DIGITS = len(str(MAX_VARIABLES))

NAME_PREFIX = "var "
BACK_MATTER_PREFIX = "back-matter "

_LITERAL_BYTES = b"0123456789- \t\r\n\v\f"
_BLANKS_TO_COMMA = bytes.maketrans(b" \t\r\n\v\f", b",,,,,,")
_BLANK_BYTES = b" \t\r\v\f"
_HEADER = re.compile(r"p[ \t]+cnf[ \t]+(\S+)[ \t]+(\S+)[ \t]*\r?")
_LITERAL = re.compile(rb"-?[0-9]+")
_MINUS_ZERO = re.compile(rb"(?<![^ \t\r\n\v\f])-0+(?![^ \t\r\n\v\f])")
_NAME_COMMENT = re.compile(r"var[ \t]+([0-9]+)[ \t]+(\S.*?)[ \t\r]*")


_DIGITS_TO_NINE = bytes.maketrans(b"0123456789", b"9999999999")


_ONE_BY_ONE = 8
"""Literals as long as the header's count compared one by one before the pattern decides
(SATLIB files, whose literals nearly all have the count's length, paid 45 us a file for 64)."""


@functools.lru_cache(maxsize=64)
def _greater_than(bound: int) -> re.Pattern[bytes]:
    """A pattern for a comma-delimited unsigned number with as many digits as ``bound``
    but a larger value (leading zeros excluded)."""
    digits = str(bound)
    options = []
    for i, digit in enumerate(digits):
        if digit != "9":
            low = int(digit) + 1 if i else max(int(digit) + 1, 1)
            rest = len(digits) - i - 1
            options.append(f"{digits[:i]}[{low}-9][0-9]{{{rest}}}")
    if not options:
        return re.compile(rb"(?!)")
    return re.compile(b",(?:" + "|".join(options).encode() + b")(?=,)")


def literal_magnitude(token: bytes) -> int:
    """The absolute value of an ASCII literal token (``-?[0-9]+``); any value with more
    digits than MAX_VARIABLES comes back as MAX_VARIABLES + 1 (``int`` refuses thousands)."""
    digits = token.lstrip(b"-").lstrip(b"0")
    return int(digits or b"0") if len(digits) <= _MAX_DIGITS else MAX_VARIABLES + 1


def literal_value(token: bytes) -> int:
    """``int(token)`` for a literal token (``-?[0-9]+``) of any length: one with more digits
    than MAX_VARIABLES comes back as MAX_VARIABLES + 1 with its sign."""
    magnitude = literal_magnitude(token)
    return -magnitude if token.startswith(b"-") else magnitude


def beyond_max_message(word: str, token: bytes) -> str:
    """``literal … exceeds the largest variable number 2147483647`` (``word`` names it)."""
    shown = literal_for_message(token)
    return f"{word} {shown} exceeds the largest variable number {MAX_VARIABLES}"


def literal_for_message(token: bytes) -> str:
    """A literal token for a message, without leading zeros, cut after 30 characters."""
    sign = "-" if token.startswith(b"-") else ""
    digits = token.lstrip(b"-").lstrip(b"0").decode("ascii", "replace") or "0"
    return sign + (digits if len(digits) <= 30 else digits[:30] + f"… ({len(digits)} digits)")


def _json_clauses(commas: bytes) -> list[list[int]] | None:
    """The clause lists of a block whose blanks are commas (``,1,-2,0,3,`` gives
    ``[[1, -2], [3]]``, the last list being the open clause), built by ``json.loads``;
    None when the text is not such a block (empty items, leading zeros, …) or when
    replacing ``,0,`` would go wrong (an empty clause, a block starting with its 0)."""
    if commas.startswith(b",0,") or b",0,0," in commas:
        return None
    body = commas.replace(b",0,", b"],[")
    body = body[1:] if body.endswith(b"[") else body[1:-1]
    try:
        return json.loads(b"[[" + body + b"]]")
    except ValueError:
        return None


def _comment_may_start(line: bytes, at: int) -> bool:
    """Whether the ``c`` at ``line[at]``, after literals, starts a comment: after a blank
    (``1 2 0 c note``), or right after a clause's ``0`` (``1 2 0c``), which minisat, cadical,
    kissat and picosat all take as a comment (``1 2c 0`` they refuse, but picosat)."""
    before = line[at - 1 : at]
    if before in (b" ", b"\t", b"\r", b"\v", b"\f"):
        return True
    word = line[:at].split()[-1]
    return word.strip(b"0") == b"" and before == b"0"


def _shown(token: bytes) -> str:
    text = token.decode("utf-8", "replace")
    return repr(text if len(text) <= 20 else text[:20] + "…")


def _not_utf8(data: bytes) -> str | None:
    """``not UTF-8 text (byte 0x..)`` for the first byte of ``data`` that is not UTF-8, as
    the other readers name it (not shown as U+FFFD, which is not in the file); None when
    ``data`` is UTF-8 text (review 26 #5, 26-B #3)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text (byte 0x{data[exc.start]:02x})"
    return None


def _not_a_literal(token: bytes) -> str:
    """The message for a token that is no literal."""
    return _not_utf8(token) or f"expected a literal or 0, found {_shown(token)}"


def is_answer_line(line: str) -> bool:
    """True for a line that only a solver's answer starts with: ``s SATISFIABLE`` (or
    UNSATISFIABLE, UNKNOWN), a ``v`` line, or a MiniSat result file's SAT/UNSAT/INDET —
    for readers of a CNF, a maze or a DP input to say what they were given instead.

    >>> is_answer_line("s SATISFIABLE"), is_answer_line("v 1 -2 0"), is_answer_line("UNSAT")
    (True, True, True)
    >>> is_answer_line("1 2 0"), is_answer_line("START A")
    (False, False)
    """
    tokens = line.split()
    if not tokens:
        return False
    if tokens[0] == "s":
        return tokens[1:2] != [] and tokens[1] in ("SATISFIABLE", "UNSATISFIABLE", "UNKNOWN")
    if tokens[0] == "v":
        return all(token.lstrip("-").isdigit() for token in tokens[1:])
    return len(tokens) == 1 and tokens[0] in ("SAT", "UNSAT", "INDET")


def is_maze_line(line: str) -> bool:
    """True for a maze file's first line (the assignment's front-end input): node names,
    ``START`` among them, and no number — for readers of a CNF or a DP input to say what
    they were given instead.

    A back end's walk (``START A START B``) starts at START and names a node again; a maze's
    node list does neither, unless it is wrong (review 22 #3; a walk alone in its file is
    told from a maze by `formats.detect.read_dimacs_or_dp`).

    >>> is_maze_line("START A B C"), is_maze_line("1 -2 0"), is_maze_line("START A START")
    (True, False, False)
    >>> is_maze_line("A START B A")
    True
    """
    tokens = line.split()
    return (
        "START" in tokens
        and tokens[0] != "c"
        and (tokens[0] != "START" or len(set(tokens)) == len(tokens))
        and not any(token.lstrip("-").isdigit() for token in tokens)
    )


MAZE_NOT_INPUT = "this is a maze file, not a CNF: satkit maze solve (or maze encode) reads it"
"""What a reader says when a maze file (`is_maze_line`) is given as its input."""

PATH_NOT_INPUT = "this is a back end's answer (one line: a walk from START), not a CNF"
"""What `formats.detect.read_dimacs_or_dp` says when a back end's walk is given as its
input: the line the reader took for a maze's (`MAZE_NOT_INPUT`) is all the input holds."""


ANSWER_NOT_INPUT = (
    "this is a solver's answer (s/v lines or a MiniSat result), not a CNF: satkit maze "
    "decode ANSWER --cnf CNF reads one"
)
"""What a reader says when a solver's answer (`is_answer_line`) is given as its input."""


WARNINGS_OF_A_KIND = 10
"""How many warnings of one kind a parse lists (a million Latin-1 comment lines gave a
million lines on stderr and 128 MB kept: audit 28-A #1); the rest are counted."""

UNTERMINATED = "last clause has no terminating 0"
"""The warning for input that ends inside a clause (an error with ``strict``)."""


class _Reader:
    """State of one parse: the clauses so far, the open clause, the header, warnings."""

    def __init__(self, name: str, strict: bool, keep_comments: bool = True) -> None:
        self.name = name
        self.strict = strict
        self.keep_comments = keep_comments
        self.formula = Formula()
        self.clauses = self.formula.clauses
        self.pending: list[int] = []  # literals of a clause not yet ended by 0
        self.pending_at: tuple[bytes, int] | None = None  # (text, first line) where it began
        self.declared_vars: int | None = None
        self.declared_clauses: int | None = None
        self.header_line = 0
        self.max_var = 0
        self.ended = False  # a % line was seen
        self.end_line = 0  # the line of that % (where the input ends)
        self.trailer_checked = False  # what follows it was found to be more than a trailer
        self.first_clause_line = 0
        self.back_matter: list[str] = []
        self.over_header: re.Pattern[bytes] | None = None
        self.warned: dict[str, list] = {}  # kind -> [how many, the first one's line]

    # -- messages -------------------------------------------------------------------------
    def error(self, line: int | None, message: str) -> FormatError:
        return FormatError(self.name, line, message)

    def warn(self, line: int | None, message: str, kind: str | None = None) -> None:
        """Keep a warning; past `WARNINGS_OF_A_KIND` of one ``kind`` (the message, unless
        given), only count it: `finish` says how many more there were."""
        key = message if kind is None else kind
        seen = self.warned.get(key)
        if seen is None:
            self.warned[key] = [1, line]
        else:
            seen[0] += 1
            if seen[0] > WARNINGS_OF_A_KIND:
                return
        self.formula.warnings.append(FormatWarning(self.name, line, message))

    def complain(self, line: int | None, message: str) -> None:
        """An error when strict, else a warning."""
        if self.strict:
            raise self.error(line, message)
        self.warn(line, message)

    # -- blocks ---------------------------------------------------------------------------
    def feed(self, block: bytes, first_line: int) -> None:
        """Parse a block of whole lines whose first line is number ``first_line``.

        ``odd`` holds, in order, every byte that cannot occur in a clause; each
        one is found with ``find`` and its line handled as a comment, header,
        ``%`` or error, while the runs of clause lines between them go to
        :meth:`feed_literals` whole.
        """
        if self.ended:
            return
        odd = block.translate(None, _LITERAL_BYTES)
        if not odd:
            self.feed_literals(block, first_line)
            return
        start = 0
        line = first_line
        seen = 0
        while seen < len(odd):
            position = block.find(odd[seen : seen + 1], start)
            begin = max(start, block.rfind(b"\n", start, position) + 1)
            end = block.find(b"\n", position)
            if end < 0:
                end = len(block)
            if begin > start:
                self.feed_literals(block[start:begin], line)
                line += block.count(b"\n", start, begin)
            raw = block[begin:end]
            if raw[: position - begin].strip(b" \t\r\v\f"):
                at = position - begin
                if raw[at : at + 1] == b"c" and _comment_may_start(raw, at):
                    # `1 2 0 c note`: a comment from a word c to the line's end, as minisat,
                    # cadical (--strict too) and picosat read it
                    self.feed_literals(block[begin:position], line)
                    self.inline_comment(block[position + 1 : end], line)
                else:
                    self.find_bad_token(raw, line)  # an odd byte inside a clause line
            else:
                self.special_line(raw, line)
            if self.ended:
                self.trailer(block[end + 1 :], line + 1)
                return
            seen += len(raw.translate(None, _LITERAL_BYTES))
            start = end + 1
            line += 1
        if start < len(block):
            self.feed_literals(block[start:], line)

    def trailer(self, block: bytes, first_line: int) -> None:
        """Lines after the ``%`` that ended the input: SATLIB's trailer (``0``, blank lines)
        and comments pass; anything else is ignored with a warning (an error when strict).
        Clauses after a ``%`` were dropped without a word, even under --strict, where
        cadical, picosat, minisat and PySAT all refuse such a file (audit 21-B #6)."""
        if self.trailer_checked:
            return
        for offset, raw in enumerate(block.split(b"\n")):
            stripped = raw.strip()
            if stripped in (b"", b"0") or stripped[:1] in (b"c", b"%"):
                continue
            self.trailer_checked = True
            ending = f"the '%' line that ends the input (line {self.end_line})"
            shown = _not_utf8(stripped)
            what = f"a line that is {shown}" if shown else _shown(stripped)
            what = f"{what} after {ending}"
            self.complain(
                first_line + offset,
                f"{what}; SATLIB puts only '0' there" if self.strict
                else f"{what} is ignored (SATLIB puts only '0' there)",
            )  # fmt: skip
            return

    def feed_literals(self, text: bytes, first_line: int) -> None:
        """Literals and 0s (only the bytes of ``_LITERAL_BYTES``) beginning on line ``first_line``.

        Fast path: every blank becomes a comma, each ``,0,`` becomes ``],[`` and
        ``json.loads`` builds every clause list in C; runs of blanks are squeezed only
        when that fails. Anything unusual (an empty clause, a clause continued from
        the previous block that starts with its 0, leading zeros, invalid tokens)
        takes the plain token loop instead.
        """
        commas = b"," + text.translate(_BLANKS_TO_COMMA)
        if not commas.endswith(b","):
            commas += b","
        if not commas.strip(b","):
            return  # blank lines only
        if self.first_clause_line == 0:
            self.first_clause_line = first_line
            if self.declared_vars is None:
                self.complain(first_line, "no 'p cnf VARIABLES CLAUSES' header before the clauses")
        if b",-0" in commas and _MINUS_ZERO.search(text):
            self.minus_zero(text, first_line)
        lists = _json_clauses(commas)
        if lists is None and b",," in commas:
            # runs of blanks (CRLF, tabs, aligned columns) make empty JSON items: only
            # then are they squeezed, and the block tried again
            while b",," in commas:
                commas = commas.replace(b",,", b",")
            lists = _json_clauses(commas)
        if lists is None:
            lists = self.token_loop(text, first_line)
            tail = lists.pop()
            filled = [clause for clause in lists if clause]
        else:
            tail = lists.pop()
            filled = lists
        if tail:
            filled.append(tail)
        if self.may_exceed_header(commas):
            # (an empty clause, " 0" or "1 0  0", can come through json.loads as [])
            high = max(map(max, filter(None, filled)), default=0)
            low = min(map(min, filter(None, filled)), default=0)
            self.note_max(max(high, -low), text, first_line)
        if tail:
            filled.pop()
        if lists:
            if self.pending:
                lists[0][:0] = self.pending
                self.pending = []
            self.clauses.extend(lists)
        if tail:
            if not self.pending:
                self.pending_at = (text, first_line)
            self.pending.extend(tail)

    def token_loop(self, text: bytes, first_line: int) -> list[list[int]]:
        """The plain path: every token through ``int``; the last list is the open clause."""
        lists: list[list[int]] = []
        current: list[int] = []
        for token in text.split():
            if not _LITERAL.fullmatch(token):
                self.find_bad_token(text, first_line)
            try:
                value = int(token)
            except ValueError:  # more digits than int() converts: far above MAX_VARIABLES
                value = literal_value(token)  # unless they are leading zeros
                if abs(value) > MAX_VARIABLES:
                    self.literal_too_large(text, first_line)
            if value:
                current.append(value)
            else:
                if not lists and self.pending:
                    current[:0] = self.pending
                    self.pending = []
                lists.append(current)
                current = []
        lists.append(current)
        return lists

    def may_exceed_header(self, commas: bytes) -> bool:
        """False when no literal in ``commas`` (a block with its blanks made commas) can
        exceed the declared variable count.

        Finding the largest literal clause by clause costs as much as the parse,
        so with a header this asks the text instead: are there tokens with more
        digits than the declared count, or a same-length token above it (one
        precompiled pattern)? Only then are the clauses scanned for the maximum.
        """
        if self.declared_vars is None:
            return True
        declared = self.declared_vars
        digits = len(str(declared))
        nines = commas.translate(_DIGITS_TO_NINE)
        run = b"9" * digits
        if run + b"9" in nines:
            return True  # a literal with more digits than the declared count
        # the first few literals as long as the count are compared one by one; if there
        # are more, one pattern search decides (counting them first cost as much again)
        position = nines.find(run)
        for _ in range(_ONE_BY_ONE):
            if position < 0:
                return False
            if int(commas[position : position + digits]) > declared:
                return True
            position = nines.find(run, position + digits)
        if position < 0:
            return False
        if self.over_header is None:
            self.over_header = _greater_than(declared)
        return self.over_header.search(commas.translate(None, b"-")) is not None

    def note_max(self, high: int, text: bytes, first_line: int) -> None:
        if high > self.max_var:
            if high > MAX_VARIABLES or (
                self.strict and self.declared_vars is not None and high > self.declared_vars
            ):
                self.literal_too_large(text, first_line)
            self.max_var = high

    # -- slow paths -----------------------------------------------------------------------
    def pending_line(self) -> int | None:
        """The line where the clause still waiting for its 0 began (looked up only when needed)."""
        if self.pending_at is None:
            return None
        text, first_line = self.pending_at
        tokens = text.split()
        zeros = (i for i, token in enumerate(tokens) if not literal_magnitude(token))
        last_zero = max(zeros, default=-1)
        target = last_zero + 1  # index of the open clause's first token
        for offset, line_text in enumerate(text.split(b"\n")):
            count = len(line_text.split())
            if target < count:
                return first_line + offset
            target -= count
        return first_line

    def find_bad_token(self, text: bytes, first_line: int) -> None:
        """Raise a FormatError naming the first token of ``text`` that is not a literal."""
        for offset, line_text in enumerate(text.split(b"\n")):
            for token in line_text.split():
                if not _LITERAL.fullmatch(token):
                    raise self.error(first_line + offset, _not_a_literal(token))
        raise self.error(first_line, "invalid literal")

    def minus_zero(self, text: bytes, first_line: int) -> None:
        for offset, line_text in enumerate(text.split(b"\n")):
            if _MINUS_ZERO.search(line_text):
                raise self.error(first_line + offset, "'-0' is not a literal (0 ends a clause)")

    def literal_too_large(self, text: bytes, first_line: int) -> None:
        """Raise a FormatError for the first literal of ``text`` above MAX_VARIABLES or,
        when strict, above the declared variable count."""
        bound = MAX_VARIABLES
        if self.strict and self.declared_vars is not None:
            bound = self.declared_vars
        for offset, line_text in enumerate(text.split(b"\n")):
            for token in line_text.split():
                magnitude = literal_magnitude(token)
                if magnitude > MAX_VARIABLES:
                    raise self.error(first_line + offset, beyond_max_message("literal", token))
                if magnitude > bound:
                    shown = literal_for_message(token)
                    message = f"literal {shown} exceeds the declared {count(bound, 'variable')}"
                    raise self.error(first_line + offset, message)
        raise self.error(first_line, f"a literal exceeds the largest variable number {bound}")

    def special_line(self, raw: bytes, line: int) -> None:
        """A comment, the header, the % end marker, or something invalid."""
        stripped = raw.lstrip(b" \t")
        first = stripped[:1]
        if first == b"c":
            try:
                body = stripped[1:].decode("utf-8")
            except UnicodeDecodeError:
                if self.strict:
                    raise self.error(line, "comment is not UTF-8 text") from None
                self.warn(line, "comment is not UTF-8 text; undecodable bytes replaced", "utf8")
                body = stripped[1:].decode("utf-8", "replace")
            self.comment(body.rstrip("\r"), line)
        elif first == b"p":
            bad = _not_utf8(stripped)
            if bad:
                raise self.error(line, f"malformed header: {bad}")
            self.header(stripped.decode("utf-8"), line)
        elif first == b"%":
            self.ended = True
            self.end_line = line
        else:
            if b"\x00" in raw:
                raise self.error(line, "binary data, not DIMACS text")
            text = stripped.decode("utf-8", "replace")
            if is_answer_line(text):  # (audit 21-B #5)
                raise self.error(line, ANSWER_NOT_INPUT)
            first = not self.header_line and not self.clauses
            # (audit 22-C #4; a file named .cnf is a CNF with a stray line, not a maze)
            starts = text.split()[:1] == ["START"]  # (a maze's, or a walk's: see the caller)
            if first and (is_maze_line(text) or starts) and not named_dimacs(self.name):
                raise self.error(line, MAZE_NOT_INPUT)
            raise self.error(line, _not_a_literal(stripped.split()[0]))

    def inline_comment(self, body: bytes, line: int) -> None:
        """A comment after literals (``1 2 0 c note``): dropped, as the solvers drop it (it
        is kept nowhere and names nothing), but held to the rule for comments: UTF-8 text."""
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            if self.strict:
                raise self.error(line, "comment is not UTF-8 text") from None
            self.warn(
                line, "comment is not UTF-8 text (a comment after literals: dropped)", "utf8"
            )

    def comment(self, body: str, line: int) -> None:
        text = body[1:] if body.startswith((" ", "\t")) else body
        if text.startswith(NAME_PREFIX):
            match = _NAME_COMMENT.fullmatch(text)
            if match and "\r" in match.group(2):
                # (kissat refuses a CR inside a line, and no `c var` line can carry one)
                self.warn(line, "a 'c var' name holding a carriage return: read as a plain comment")
            elif match and match.group(1).strip("0") == "":
                self.warn(line, "a 'c var 0' name: there is no variable 0; read as a plain comment")
            elif match and literal_magnitude(match.group(1).encode()) <= MAX_VARIABLES:
                var, name = int(match.group(1)), match.group(2)
                before = self.formula.names.get(var)
                if before is not None and before != name:
                    message = f"variable {var} is named again: {name!r} replaces {before!r}"
                    self.warn(line, message, "named again")
                self.formula.names[var] = name
                self.formula.name_lines[var] = line
                return
        elif text.startswith(BACK_MATTER_PREFIX):
            try:
                piece = json.loads(text[len(BACK_MATTER_PREFIX) :])
            except (ValueError, RecursionError):  # not JSON, or nested too deeply
                piece = None
            if isinstance(piece, str):
                if not self.back_matter:
                    self.formula.back_matter_line = line
                self.back_matter.append(piece)
                return
            # someone else's "c back-matter …" comment: an ordinary comment, but say so
            self.warn(
                line,
                "a 'c back-matter' line that is not one JSON string: read as a plain comment,"
                " not as back matter",
            )
        if self.keep_comments:
            self.formula.comments.append(text)

    def header(self, text: str, line: int) -> None:
        match = _HEADER.fullmatch(text)
        digits = match and (match.group(1) + match.group(2))
        if not (digits and digits.isascii() and digits.isdigit()):  # (not '２' or '٣')
            expected = "expected 'p cnf VARIABLES CLAUSES'"
            shown = quoted(text.strip(" \t\r"))  # (not str.strip: a no-break space is shown)
            raise self.error(line, f"malformed header {shown} ({expected})")
        if self.declared_vars is not None:
            first = self.header_line
            raise self.error(line, f"a second 'p cnf' header (the first is on line {first})")
        if self.first_clause_line:
            self.complain(line, "'p cnf' header after the first clause")
        if literal_magnitude(match.group(1).encode()) > MAX_VARIABLES:
            raise self.error(line, f"header declares more than {MAX_VARIABLES} variables")
        self.declared_vars = int(match.group(1))
        try:
            self.declared_clauses = int(match.group(2))
        except ValueError:  # thousands of digits: more than int() converts
            raise self.error(line, "header declares an impossibly large clause count") from None
        self.header_line = line
        if self.strict and self.max_var > self.declared_vars:
            raise self.error(
                line, f"header declares {count(self.declared_vars, 'variable')} but literals go "
                f"up to {self.max_var}"
            )

    # -- end ------------------------------------------------------------------------------
    def finish(self, last_line: int) -> Formula:
        """Close the parse: the unterminated last clause, header checks, the variable count."""
        if self.pending:
            self.complain(self.pending_line(), UNTERMINATED)
            self.clauses.append(self.pending)
            self.pending = []
        formula = self.formula
        if self.declared_vars is None and not self.first_clause_line:
            raise self.error(last_line, "empty input: no 'p cnf' header and no clauses")
        declared = self.declared_vars or 0
        if self.declared_vars is not None and self.max_var > declared:
            declares = f"header declares {count(declared, 'variable')}"
            message = f"{declares} but literals go up to {self.max_var}"
            self.warn(self.header_line, message)
        if self.declared_clauses is not None and len(formula.clauses) != self.declared_clauses:
            self.complain(
                self.header_line,
                f"header declares {count(self.declared_clauses, 'clause')} "
                f"but the file has {len(formula.clauses)}",
            )
        for many, first in self.warned.values():
            if many > WARNINGS_OF_A_KIND:
                more = f"{many - WARNINGS_OF_A_KIND:,} more warnings like line {first}'s"
                formula.warnings.append(FormatWarning(self.name, None, f"{more}, not listed"))
        formula.nvars = max(declared, self.max_var)
        formula.declared_clauses = self.declared_clauses
        formula.header_line = self.header_line or None
        if self.back_matter:
            formula.back_matter = "".join(self.back_matter)
        return formula


@contextlib.contextmanager
def lists_built_without_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while clause lists are built, then file the
    new lists with the long-lived objects.

    Lists of ints cannot form reference cycles, and with the collector running
    its repeated sweeps over millions of fresh lists cost more than the parse
    itself (measured: 3-4x on a 300,000-clause block). Turned back on, the collector
    would still sweep every new list once as a young object (0.09 s of a 0.67 s read
    of 20 MB); the clause lists are long-lived data, so the objects alive at the end
    are moved to the oldest generation instead (``gc.freeze()`` then
    ``gc.unfreeze()``), where only full collections look at them — as they would at
    PySAT's lists once those have aged. Skipped when the collector was off, or when
    the program has frozen objects of its own (``unfreeze`` would release them).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def _parse_blocks(
    blocks: Iterable[tuple[bytes, int]], name: str, strict: bool, keep_comments: bool = True
) -> Formula:
    reader = _Reader(name, strict, keep_comments)
    block, first_line = b"", 1
    with lists_built_without_gc():
        for block, first_line in blocks:
            if reader.ended:  # (the blocks after the % line: read for the trailer check)
                reader.trailer(block, first_line)
                if reader.trailer_checked:
                    break
                continue
            reader.feed(block, first_line)
    # the end of the input: the % line that ends it (what follows is ignored), else the
    # line after the last one
    return reader.finish(reader.end_line if reader.ended else first_line + block.count(b"\n"))


def parse_dimacs_blocks(
    blocks: Iterable[tuple[bytes, int]],
    name: str,
    *,
    strict: bool = False,
    keep_comments: bool = True,
) -> Formula:
    """Parse DIMACS from ``(block, first_line)`` pairs of whole lines, as
    `formats.streams.iter_byte_blocks` gives them (for a caller that looked at the
    first block before deciding how to read the rest). Without ``keep_comments`` plain
    comments are checked and dropped (``c var`` names and back matter are still read): a
    solver needs none of them, and a file's comments can be most of it."""
    return _parse_blocks(blocks, name, strict, keep_comments)


def _text_blocks(data: bytes, block_size: int | None = None) -> Iterator[tuple[bytes, int]]:
    """Cut an in-memory buffer into blocks of whole lines: ``(block, first_line)``.

    ``block_size`` defaults to the module's BLOCK_SIZE as it is at call time.
    """
    if block_size is None:
        block_size = BLOCK_SIZE
    start = 0
    line = 1
    size = len(data)
    while start < size:
        stop = start + block_size
        if stop >= size:
            stop = size
        else:
            newline = data.find(b"\n", stop)
            stop = size if newline < 0 else newline + 1
        block = data[start:stop]
        yield block, line
        line += block.count(b"\n")
        start = stop


def _text_bytes(text: str) -> bytes:
    """``text`` as the bytes of a file: a lone surrogate that stands for a byte that is not
    UTF-8 (how satkit's readers keep one) is that byte again, any other is kept as
    surrogatepass would write it; either is then the reader's non-UTF-8 case, not a
    UnicodeEncodeError."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def parse_dimacs(text: str | bytes, name: str = "<string>", *, strict: bool = False) -> Formula:
    """Parse DIMACS CNF text into a Formula (see the module docstring for the rules).

    >>> f = parse_dimacs("p cnf 3 2\\n1 -2 0 2\\n3 0\\n")
    >>> f.nvars, f.clauses
    (3, [[1, -2], [2, 3]])
    """
    data = _text_bytes(text) if isinstance(text, str) else text
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if lone_cr_line_ends(data, final=True):  # CR line ends: read as LF (see iter_byte_blocks)
        data = data.replace(b"\r", b"\n")
    return _parse_blocks(_text_blocks(data), name, strict)


def read_dimacs(path: str | os.PathLike[str], *, strict: bool = False) -> Formula:
    """Read a DIMACS CNF file, streaming it block by block.

    ``-`` reads stdin; gzip, bz2 and xz are recognised by their magic bytes.
    Raises FormatError (file, line, message) on bad input; tolerated
    irregularities are in the result's ``warnings``.
    """
    return _parse_blocks(iter_byte_blocks(path, BLOCK_SIZE), display_name(path), strict)


def clause_line(path: str | os.PathLike[str], index: int) -> int | None:
    """The line on which clause ``index`` (1-based, in file order) of a DIMACS file begins
    (for an empty clause: the line of its ``0``), found by reading the file again.

    For error messages about a clause of an already parsed formula, which keeps no
    line numbers: slow, and only on that error path. None for ``-`` and anything but a
    regular file (a pipe cannot be read twice; opening a named pipe again would wait for
    a writer that never comes), for an unreadable file, or when the file has no such
    clause.
    """
    if os.fspath(path) == STDIO or index < 1:
        return None
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
    except (OSError, ValueError):
        return None
    zeros = 0  # clauses ended so far
    try:
        for block, first_line in iter_byte_blocks(path, BLOCK_SIZE):
            for offset, raw in enumerate(block.split(b"\n")):
                stripped = raw.lstrip(b" \t")
                if stripped[:1] in (b"c", b"p"):
                    continue
                if stripped[:1] == b"%":
                    return None
                tokens = raw.split()
                comment = next((i for i, token in enumerate(tokens) if b"c" in token), None)
                if comment is not None:  # `1 2 0 c note`: the rest of the line is a comment
                    glued = tokens[comment].split(b"c", 1)[0]  # `1 2 0c`: the 0 ends a clause
                    tokens = tokens[:comment] + ([glued] if glued else [])
                ended = tokens.count(b"0")
                if b"00" in raw:  # zeros written as 00: count them exactly
                    ended = sum(1 for token in tokens if not token.strip(b"-0"))
                if zeros + ended < index - 1:
                    zeros += ended
                    continue
                for token in tokens:
                    if zeros == index - 1:
                        return first_line + offset
                    if not token.strip(b"-0"):
                        zeros += 1
    except FormatError:
        return None
    return None


def format_clause(clause: Sequence[int]) -> str:
    """One clause as a DIMACS line without the newline: ``1 -2 0`` (empty clause: ``0``)."""
    return " ".join(map(str, clause)) + " 0" if clause else "0"


def comment_lines(comment: str) -> list[str]:
    """``comment`` as ``c`` lines (each with its ``\\n``): one per line of the text (LF,
    CRLF or CR), so that a line break in it (a file name holding one, say) cannot end the
    comment early and leave the rest as a line no reader takes.

    >>> comment_lines("maze two\\nlines.txt: 2 nodes")
    ['c maze two\\n', 'c lines.txt: 2 nodes\\n']
    """
    parts = io.StringIO(comment, newline=None).read().split("\n") if comment else [""]
    return [f"c {part}\n" if part else "c\n" for part in parts]


def holds_line_break(text: str) -> bool:
    """Whether ``text`` holds a character that ends a line for some reader (LF, CR, VT,
    FF, U+2028, …: those of `str.splitlines`).

    >>> holds_line_break("Pet(4,Fish)"), holds_line_break("a\\rb")
    (False, True)
    """
    return len(f"<{text}>".splitlines()) > 1


def name_line(var: int, name: str) -> str:
    """The ``c var N NAME`` line (with its ``\\n``) naming variable ``var``.

    Raises ValueError for an empty name or one holding a line feed or a carriage return
    (which the reader never gives): the break would end the comment early and leave the rest
    of the name as a line that changes the formula or that no reader takes (kissat refuses a
    CR inside a line). Other characters that `str.splitlines` splits on (FF, U+2028, …) are
    written as they are: DIMACS readers end a line at LF only.
    """
    if not name.strip() or "\n" in name or "\r" in name:
        raise ValueError(f"variable {var}'s name {name!r} cannot be one 'c var' line")
    return f"c {NAME_PREFIX}{var} {name}\n"


def dimacs_lines(formula: Formula, *, literals_checked: bool = False) -> Iterator[str]:
    """The DIMACS text of ``formula``, line by line (each with its ``\\n``).

    Order: comments, ``c var N NAME`` lines, ``c back-matter …`` lines, the
    header (variables = max(declared, used); clauses counted), the clauses. Raises
    ValueError, before the first line, for a literal no DIMACS file can hold (a 0 inside a
    clause, a bool, a variable past 2^31-1: `checked_max_var`) or a declared count past
    2^31-1. ``literals_checked``: the clauses come from satkit's readers, whose literals
    are known good (`satkit convert`): the check, a sixth of a big conversion, is skipped.
    """
    used = formula.max_var if literals_checked else checked_max_var(formula.clauses)
    top = max(formula.nvars, used)
    if top > MAX_VARIABLES:
        raise ValueError(f"{top} variables declared, more than {MAX_VARIABLES} (2^31-1)")
    for comment in formula.comments:
        yield from comment_lines(comment)
    for var in sorted(formula.names):
        yield name_line(var, formula.names[var])
    if formula.back_matter:
        for piece in io.StringIO(formula.back_matter, newline="").readlines():
            # a byte that is not UTF-8 (kept as a lone surrogate) goes as a \udcXX escape,
            # which reads back as the same byte: the comment line itself stays UTF-8
            kept = bad_byte(piece) is not None
            yield f"c {BACK_MATTER_PREFIX}{json.dumps(piece, ensure_ascii=kept)}\n"
    yield f"p cnf {top} {len(formula.clauses)}\n"
    for clause in formula.clauses:
        yield format_clause(clause) + "\n"


def dimacs_text(formula: Formula, *, literals_checked: bool = False) -> str:
    """The whole DIMACS text of ``formula`` as one string (`dimacs_lines`)."""
    return "".join(dimacs_lines(formula, literals_checked=literals_checked))


def write_dimacs(
    formula: Formula,
    path: str | os.PathLike[str],
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    literals_checked: bool = False,
) -> None:
    """Write ``formula`` as DIMACS to ``path`` (``-`` = stdout), atomically, in chunks.

    Refuses to overwrite any of ``inputs`` (FormatError); ``literals_checked`` as for
    `dimacs_lines`.
    """
    with atomic_output(path, inputs=tuple(inputs)) as handle:
        write = handle.write
        chunk: list[str] = []
        for line in dimacs_lines(formula, literals_checked=literals_checked):
            chunk.append(line)
            if len(chunk) >= 8192:
                write("".join(chunk))
                chunk.clear()
        write("".join(chunk))
