"""Reading the front-end input into a :class:`~maze.model.Maze`, with FILE:LINE errors.

The format (seed 002)::

    START A B C          <- line 1: the nodes
    GOLD WAND            <- line 2: the treasures (may be empty)
    3                    <- line 3: K, the number of moves
    START TREASURES NEXT A B
    A TREASURES GOLD NEXT START
    B TREASURES WAND NEXT START

Tolerated, because real files contain them: CRLF line ends, a UTF-8 BOM,
runs of blanks and tabs between names (``G  H`` is two nodes, never a phantom
empty one), leading and trailing blanks, blank lines after the header, and a
missing final newline.

Errors (:class:`~formats.errors.FormatError`, with the line): an unknown node
as a line's head or in a NEXT list, two lines for one node, an undeclared
treasure, a steps value that is not a non-negative integer (or is above
`MAX_STEPS`), no START, a line without the TREASURES/NEXT keywords, a name
declared twice or named like a keyword, and the toll variant's ``TOLLS`` lines.

Warnings (errors with ``strict=True``): names longer than the course's limits
(5 characters for nodes, 10 for treasures), a declared node without a line, a
treasure no node has and a treasure at START (both make every K
unsatisfiable), and an exit or treasure listed twice on one line (kept once).
"""

from __future__ import annotations

import os
import re

from formats.dimacs import is_answer_line, literal_for_message, literal_magnitude
from formats.errors import FormatError, FormatWarning
from formats.formula import MAX_VARIABLES
from formats.streams import display_name, read_text, text_lines
from maze.model import NODE_NAME_LIMIT, START, TREASURE_NAME_LIMIT, Maze

KEYWORDS = ("TREASURES", "NEXT")
"""The node-line keywords; no node or treasure may be called like one."""

_STEPS = re.compile(r"[0-9]+")

MAX_STEPS = MAX_VARIABLES - 1
"""The largest K: a walk of K moves has K+1 times, each with an At atom of START at least,
and DIMACS numbers no more than MAX_VARIABLES variables."""


def steps_value(digits: str) -> int:
    """K written as ``digits`` (ASCII digits, leading zeros allowed, however many: ``int``
    refuses more than 4,300 digits); MAX_STEPS + 1 for any value above MAX_STEPS."""
    return min(literal_magnitude(digits.encode("ascii")), MAX_STEPS + 1)


def steps_beyond_max(digits: str) -> str | None:
    """The message refusing K written as ``digits`` (ASCII digits) when it is above
    `MAX_STEPS`, else None; thousands of digits are cut short in it."""
    if steps_value(digits) <= MAX_STEPS:
        return None
    return (
        f"K {literal_for_message(digits.encode())} is more than {MAX_STEPS:,}: a walk of K "
        f"moves has an At atom of START for each of its K+1 times, and DIMACS numbers at most "
        f"{MAX_VARIABLES:,} variables"
    )


class _Reader:
    """State of one parse: the file name, the policy, and the warnings so far."""

    def __init__(self, name: str, strict: bool) -> None:
        self.name = name
        self.strict = strict
        self.warnings: list[FormatWarning] = []

    def error(self, line: int | None, message: str) -> FormatError:
        return FormatError(self.name, line, message)

    def warn(self, line: int | None, message: str) -> None:
        if self.strict:
            raise FormatError(self.name, line, message + " (an error with --strict)")
        self.warnings.append(FormatWarning(self.name, line, message))

    def declared(self, tokens: list[str], line: int, what: str, limit: int) -> list[str]:
        """Check one declaration line (nodes or treasures): no duplicates, no keywords."""
        seen: set[str] = set()
        long_names: list[str] = []
        for token in tokens:
            if token in KEYWORDS:
                raise self.error(line, f"a {what} cannot be called {token} (a node-line keyword)")
            if token in seen:
                raise self.error(line, f"{what} {token} is declared twice")
            seen.add(token)
            if len(token) > limit:
                long_names.append(token)
        if long_names:  # one warning for the line: a generated maze may have thousands
            more = len(long_names) - 1
            also = f", and so are {more:,} more" if more else ""
            self.warn(
                line,
                f"{what} name {long_names[0]!r} is longer than the course limit "
                f"({limit} characters){also}",
            )
        return tokens


_DP_OUTPUT_LINE = re.compile(r"-?[0-9]+\s+[TF]")


def _other_assignment_file(first: list[str], lines: list[str]) -> str | None:
    """Which other file of the assignment a text that is no maze looks like (by its first
    line ``first``), for the error: a folder of assignment files holds all of them.

    >>> _other_assignment_file(["1", "T"], ["1 T", "2 F", "0"])
    "a Davis–Putnam output ('1 T' lines; satkit maze decode reads it)"
    """
    if is_answer_line(" ".join(first)):  # (a saved cadical output had "no START node")
        return "a solver's answer (s/v lines or a MiniSat result; satkit maze decode reads it)"
    if _DP_OUTPUT_LINE.fullmatch(" ".join(first)):
        return "a Davis–Putnam output ('1 T' lines; satkit maze decode reads it)"
    if first == ["0"]:
        return (
            "a Davis–Putnam output saying NO SOLUTION (a line '0', then the key; satkit maze "
            "decode reads it), or a DP input with no clauses"
        )
    if all(token.lstrip("-").isdigit() for token in first):
        return "a Davis–Putnam input (clauses of atom numbers; satkit dp solves it)"
    if any("At(" in token for token in first):
        return "a list of clauses over At(…) atoms"
    if first[0].rstrip(",") == START and sum(1 for line in lines if line.strip()) == 1:
        return "a back end's answer (one line: a walk from START)"
    return None


def parse_maze(text: str, name: str = "<string>", *, strict: bool = False) -> Maze:
    """Parse a maze in the front-end format.

    ``name`` is used in messages. Returns a :class:`Maze` whose ``warnings``
    list the tolerated irregularities; with ``strict=True`` the first of them
    is raised as a :class:`FormatError` instead. A leading BOM is ignored.

    >>> maze = parse_maze("START A\\nGOLD\\n1\\nSTART TREASURES NEXT A\\nA TREASURES GOLD NEXT\\n")
    >>> maze.nodes, maze.treasures, maze.steps, maze.exits_of("START")
    (['START', 'A'], ['GOLD'], 1, ['A'])
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    reader = _Reader(name, strict)
    lines = text_lines(text)

    if not lines or not lines[0].split():
        raise reader.error(1, "the first line must list the nodes (it is empty)")
    first = lines[0].split()
    if START not in first or len(set(first)) < len(first):  # an error: say what it is
        other = _other_assignment_file(first, lines)
        if other is not None:
            # (it said "…, or a maze whose first line lacks START, not a maze": review 20b)
            why = f" (a maze's first line names its nodes, {START} among them)"
            why = "" if START in first else why
            raise reader.error(1, f"this is {other}, not a maze{why}")
    nodes = reader.declared(first, 1, "node", NODE_NAME_LIMIT)
    if START not in nodes:
        raise reader.error(1, f"no {START} node: the first line must declare {START}")
    if len(lines) < 2:
        raise reader.error(2, "missing the treasures line (line 2; leave it empty for none)")
    treasures = reader.declared(lines[1].split(), 2, "treasure", TREASURE_NAME_LIMIT)
    if len(lines) < 3:
        raise reader.error(3, "missing the steps line (line 3: the number of moves)")
    steps_text = lines[2].strip()
    if not _STEPS.fullmatch(steps_text):
        shown = steps_text if steps_text else "an empty line"
        raise reader.error(3, f"the steps value must be a non-negative integer, not {shown!r}")
    too_many = steps_beyond_max(steps_text)
    if too_many:
        raise reader.error(3, too_many)
    steps = steps_value(steps_text)

    node_set = set(nodes)
    treasure_set = set(treasures)
    treasures_at: dict[str, list[str]] = {}
    exits: dict[str, list[str]] = {}
    line_of: dict[str, int] = {}
    for number, line in enumerate(lines[3:], start=4):
        tokens = line.split()
        if not tokens:
            continue
        _node_line(reader, number, tokens, node_set, treasure_set, line_of, treasures_at, exits)

    for node in nodes:
        if node not in line_of:
            reader.warn(1, f"node {node} is declared but has no line (no treasures, no exits)")
    for treasure in treasures:
        if not any(treasure in found for found in treasures_at.values()):
            reader.warn(
                2, f"no node has treasure {treasure}: the maze is unsatisfiable for every K"
            )
    for treasure in treasures_at.get(START, []):
        reader.warn(
            line_of[START],
            f"treasure {treasure} is at {START}: the encoding says the player holds no treasure "
            "at time 0, so the maze is unsatisfiable for every K",
        )
    return Maze(nodes, treasures, steps, treasures_at, exits, name, reader.warnings)


def _node_line(
    reader: _Reader,
    number: int,
    tokens: list[str],
    node_set: set[str],
    treasure_set: set[str],
    line_of: dict[str, int],
    treasures_at: dict[str, list[str]],
    exits: dict[str, list[str]],
) -> None:
    """Check one ``N TREASURES … NEXT …`` line and record it."""
    head = tokens[0]
    if head in KEYWORDS:
        raise reader.error(number, f"the line starts with {head}: the node name is missing")
    if head not in node_set:
        raise reader.error(number, f"node {head} is not declared on line 1")
    if head in line_of:
        raise reader.error(
            number, f"a second line for node {head} (the first is line {line_of[head]})"
        )
    if "TOLLS" in tokens and "TOLLS" not in treasure_set:
        raise reader.error(
            number,
            "TOLLS: this is the toll variant of the maze (2014/2017), which satkit does not "
            "read; expected `N TREASURES … NEXT …`",
        )
    if len(tokens) < 2 or tokens[1] != "TREASURES":
        where = (
            "must come right after the node's name"
            if "TREASURES" in tokens[2:]
            else "is missing"
        )
        raise reader.error(
            number, f"expected `{head} TREASURES … NEXT …`: the TREASURES keyword {where}"
        )
    try:
        next_at = tokens.index("NEXT", 2)
    except ValueError:
        raise reader.error(
            number, f"expected `{head} TREASURES … NEXT …`: the NEXT keyword is missing"
        ) from None
    line_of[head] = number

    found: list[str] = []
    for treasure in tokens[2:next_at]:
        if treasure not in treasure_set:
            raise reader.error(number, f"treasure {treasure} is not declared on line 2")
        if treasure in found:
            reader.warn(number, f"treasure {treasure} is listed twice for node {head} (kept once)")
            continue
        found.append(treasure)
    targets: list[str] = []
    for target in tokens[next_at + 1 :]:
        if target not in node_set:
            raise reader.error(number, f"unknown node {target} in the NEXT list of {head}")
        if target in targets:
            reader.warn(number, f"exit {target} is listed twice for node {head} (kept once)")
            continue
        targets.append(target)
    treasures_at[head] = found
    exits[head] = targets


def read_maze(path: str | os.PathLike[str], *, strict: bool = False) -> Maze:
    """Read a maze file (``-`` = stdin; gzip/bz2/xz are detected). See :func:`parse_maze`."""
    return parse_maze(read_text(path), display_name(path), strict=strict)
