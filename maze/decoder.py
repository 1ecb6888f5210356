"""The back end: a valuation plus its key becomes the path ``START A B …`` — checked, never guessed.

Inputs it decodes:

- the assignment's DP output (``n T``/``n F`` lines in any order, ``0``, the
  key as back matter; or ``0`` + back matter for "unsatisfiable");
- an external solver's result — SAT-competition ``s``/``v`` lines or a
  MiniSat result file — together with the CNF it solved (DIMACS with
  ``c var n NAME`` comments, or a DP input with its key), so that MiniSat's,
  CaDiCaL's or Kissat's answer becomes a path.

Checks, in order: the valuation puts the player at exactly one node at each
time 0..K (the key's times), at START at time 0, and — when the key names Has
atoms — holding every treasure at time K; with the CNF, the model satisfies
every clause; with the maze, the path is a valid walk
(:mod:`maze.validator`) and an "unsatisfiable" answer is confirmed by the
layered search (:mod:`maze.search`), within a deadline the caller may give (past
it the answer stands unconfirmed and says so). An answer whose key source names atoms
but no At atom (a CNF of no maze, or its back matter) is refused, "unsatisfiable" as
much as a model: only a bare DP output ``0``, or one whose back matter names no atom
(sentences), is NO SOLUTION without a key. Any failure is a
:class:`~formats.errors.FormatError` naming the input file: an invalid path is
never printed as an answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from time import monotonic

from formats.answers import check_model
from formats.errors import FormatError, FormatWarning
from formats.formula import Formula
from formats.streams import text_lines
from maze.key import Key, cut_short, key_from_names, parse_key, refuse_missing_times
from maze.model import START, Maze
from maze.search import SearchLimit, find_walk
from maze.validator import trim_path, walk_problems

NO_SOLUTION = "NO SOLUTION"
"""What the back end prints when the clauses have no solution."""


@dataclass
class Decoded:
    """A decoded answer: ``path`` (None = no solution) and the key it was read with.

    ``confirmed`` is set for "no solution" when a maze was given: True when the layered
    search confirmed it, None when the search ran out of time. ``warnings``: what is
    wrong with the inputs but does not make the answer wrong (a broken key beside a
    "no solution" that nothing else checks).
    """

    path: list[str] | None
    key: Key | None = None
    steps: int | None = None
    confirmed: bool | None = None
    warnings: list[FormatWarning] = field(default_factory=list)

    def text(self) -> str:
        """The back end's output line (without newline): the path or ``NO SOLUTION``."""
        return NO_SOLUTION if self.path is None else " ".join(self.path)


def parse_path_text(text: str, name: str = "<string>") -> list[str] | None:
    """Read a back-end output: the path line (``START A B``; ``START, A, B`` too) or NO SOLUTION.

    A BOM, CRLF, blank lines and trailing blanks are ignored. Returns None for
    ``NO SOLUTION``; raises FormatError for an empty file or several lines. Commas
    separate nodes only when every node but the last ends in one (``START, A, D``): a maze
    may name a node ``,`` or ``A,``, which the blank-separated form keeps as it is.

    >>> parse_path_text("START, A, D\\n"), parse_path_text("NO SOLUTION")
    (['START', 'A', 'D'], None)
    >>> parse_path_text("START , A,")
    ['START', ',', 'A,']
    """
    text = text.removeprefix("\ufeff")
    lines = [(n, line.strip()) for n, line in enumerate(text_lines(text), 1) if line.strip()]
    if not lines:
        raise FormatError(name, 1, f"empty: expected a path line or {NO_SOLUTION}")
    if len(lines) > 1:
        raise FormatError(name, lines[1][0], "a path is one line; this file has more")
    line = lines[0][1]
    if line.rstrip(".").upper() == NO_SOLUTION:
        return None
    tokens = line.split()
    if all(token.endswith(",") for token in tokens[:-1]):
        return [*(token[:-1] for token in tokens[:-1]), tokens[-1].removesuffix(",")]
    return tokens


def path_from_valuation(valuation: Mapping[int, bool], key: Key, file: str) -> list[str]:
    """The walk a valuation describes: the one true ``At(N,I)`` atom of each time 0..K.

    Atoms missing from ``valuation`` count as false. Raises FormatError (about
    ``file``) when the key names no At atoms, when some time has no true At
    atom or several, when the walk does not start at START, or when a Has atom
    of time K is false.
    """
    if not key.at:
        raise FormatError(file, None, "the key names no At(N,I) atoms, so there is no path to read")
    steps = key.steps
    where: dict[int, list[int]] = {}  # time -> its true At atoms (a list of K + 1 lists took
    for atom, (_node, time) in key.at.items():  # memory in K, which one key line can make huge)
        if valuation.get(atom, False):
            where.setdefault(time, []).append(atom)
    path: list[str] = []
    for time in range(steps + 1):
        atoms = where.get(time)
        if not atoms:
            raise FormatError(
                file, None, f"no At(N,{time}) atom is true: the valuation is not a walk"
            )
        if len(atoms) > 1:
            places = " and ".join(key.at[atom][0] or "''" for atom in sorted(atoms))
            name, line, cited = key.where(atoms[1], file)
            raise FormatError(
                name, line, f"the valuation puts the player at {places} at time {time}{cited}"
            )
        node = key.at[atoms[0]][0]
        if not node:
            name, line, cited = key.where(atoms[0], file)
            message = f"the valuation puts the player at an unnamed node at time {time}"
            raise FormatError(name, line, message + cited)
        path.append(node)
    if path[0] != START:
        raise FormatError(file, None, f"the walk starts at {path[0]}, not at {START}")
    for atom, (treasure, time) in key.has.items():
        if time == steps and not valuation.get(atom, False):
            name, line, cited = key.where(atom, file)
            raise FormatError(
                name, line, f"the valuation does not hold {treasure} at time K={steps}{cited}"
            )
    return path


def first_time_all_held(valuation: Mapping[int, bool], key: Key) -> int | None:
    """The first time at which every Has atom of the key is true (None if never or no Has atoms)."""
    if not key.has:
        return None
    missing: dict[int, int] = {}
    for atom, (_treasure, time) in key.has.items():
        if not valuation.get(atom, False):
            missing[time] = missing.get(time, 0) + 1
    times = sorted({time for _t, time in key.has.values()})
    return next((time for time in times if not missing.get(time)), None)


def check_key_fits(maze: Maze, key: Key | None, file: str) -> None:
    """Raise FormatError when the key names a node that ``maze`` does not have: the answer
    and the maze are not from one encoding."""
    if key is not None:
        # the empty name is a known quirk (`split(" ")` on `G  H`): harmless unless visited
        nodes = set(maze.nodes)  # (once: built per key node, 100k nodes took 400 s)
        unknown = [node for node in key.nodes if node and node not in nodes]
        if unknown:
            raise FormatError(
                file, None, f"the key names node {unknown[0]}, which maze {maze.name} does not have"
            )


def check_with_maze(path: Sequence[str], maze: Maze, key: Key | None, file: str) -> None:
    """Raise FormatError unless ``path`` is a valid walk in ``maze`` (with the key's K)."""
    check_key_fits(maze, key, file)
    problems = walk_problems(maze, path)
    if problems:
        raise FormatError(
            file,
            None,
            f"the decoded path {' '.join(path)} is not a valid walk in {maze.name}: "
            + "; ".join(problems),
        )


def confirm_no_solution(maze: Maze, steps: int, file: str, seconds: float | None = None) -> bool:
    """Raise FormatError when the layered search finds a walk the input says does not exist.

    Returns True when the search confirms there is none, False when it ran for
    ``seconds`` (None: no limit) without finishing.
    """
    deadline = None if seconds is None else monotonic() + seconds
    try:
        walk = find_walk(maze, steps, deadline=deadline)
    except SearchLimit:
        return False
    if walk is not None:
        raise FormatError(
            file,
            None,
            f"the input says there is no solution, but {maze.name} has a walk "
            f"with K={steps}: {' '.join(walk)}",
        )
    return True


def decode(
    valuation: Mapping[int, bool] | None,
    key_source: str | Formula | Key | None,
    file: str,
    *,
    maze: Maze | None = None,
    clauses: Sequence[Sequence[int]] | None = None,
    trim: bool = False,
    key_line: int = 1,
    confirm_seconds: float | None = None,
    answer_steps: int | None = None,
    nvars: int | None = None,
) -> Decoded:
    """Decode one answer and check it as far as the inputs allow (see the module docstring).

    - ``valuation``: atom -> value, or None for "unsatisfiable".
    - ``key_source``: back matter text (its first line is line ``key_line`` of
      ``file``), a Formula whose ``names`` or ``back_matter`` hold the key, or
      a ready :class:`Key` (the CNF's: one with no At atoms is no maze's key). None
      when nothing carries a key: "unsatisfiable" is then NO SOLUTION, but a source
      that names atoms and no At atom is an error, as for a model (`_refuse_no_maze_key`).
    - ``maze``: when known, the path is validated against it and an
      "unsatisfiable" answer is confirmed by the search.
    - ``clauses``: when known, the model must satisfy them (and name no variable above
      ``nvars``, the CNF's count, when given).
    - ``trim``: cut the path at the first time every treasure is held.
    - ``confirm_seconds``: how long the search may take to confirm "unsatisfiable"
      (None: no limit); ``Decoded.confirmed`` is None when it runs out.
    - ``answer_steps``: the K the caller says the answer was encoded with; a key
      naming another K is an error.
    """
    if valuation is None:
        if maze is None:
            # nothing to check the answer against: a broken key is worth a warning, since
            # it may be why the formula is unsatisfiable (an atom named twice)
            try:
                key = _key(key_source, file, key_line)
            except FormatError as exc:
                return Decoded(None, warnings=[FormatWarning(exc.file, exc.line, exc.message)])
            _refuse_no_maze_key(key_source, key, file)
            _check_steps(key, answer_steps, file)
            return Decoded(None, key, key.steps if key is not None and key.at else None)
        key = _key(key_source, file, key_line)
        _refuse_no_maze_key(key_source, key, file)
        _check_steps(key, answer_steps, file)
        check_key_fits(maze, key, file)  # (another maze's walk says nothing of this answer)
        steps = key.steps if key is not None and key.at else maze.steps
        confirmed = confirm_no_solution(maze, steps, file, confirm_seconds)
        return Decoded(None, key, steps, True if confirmed else None)
    key = _required_key(key_source, file, key_line)
    _check_steps(key, answer_steps, file)
    if clauses is not None:
        check_model(clauses, valuation, file, nvars)
    path = path_from_valuation(valuation, key, file)
    if maze is not None:
        # the walk is checked for the K it was encoded with (the key's): an answer for
        # another K than the maze file's gets a note from the caller, not an error
        check_with_maze(path, maze.with_steps(key.steps), key, file)
        held = len(trim_path(maze, path)) - 1
        if held > maze.steps:
            # a walk encoded for more moves than the maze allows answers the maze only when
            # its first K moves (a walk of their own) already hold every treasure (audit 20-C)
            raise FormatError(
                file, None, f"the walk {' '.join(path)} holds every treasure only after {held} "
                f"moves, and {maze.name} allows K={maze.steps} (the answer was encoded with "
                f"K={key.steps}: -k {key.steps} checks it against the maze with that K)",
            )  # fmt: skip
    steps = len(path) - 1
    if maze is not None and steps > maze.steps:
        path = path[: maze.steps + 1]  # its first K moves are the maze's walk (review 20)
    if trim:
        if maze is not None:
            path = trim_path(maze, path)
        else:
            held = first_time_all_held(valuation, key)
            if held is None:
                raise FormatError(
                    file, None, "--trim needs Has atoms in the key or the maze (--maze FILE)"
                )
            path = path[: held + 1]
    warnings = []
    if maze is None:  # (with the maze, the walk was checked against it)
        cut = cut_short(key, max(valuation, default=0))
        if cut is not None:
            message = f"{cut}: if the key was cut short, so is this walk (--maze FILE checks it)"
            warnings.append(FormatWarning(file, None, message))
    return Decoded(path, key, steps, warnings=warnings)


def _check_steps(key: Key | None, answer_steps: int | None, file: str) -> None:
    """Raise FormatError when the key's K is not the one the caller gave."""
    if answer_steps is not None and key is not None and key.at and key.steps != answer_steps:
        raise FormatError(
            file,
            None,
            f"the answer was encoded with K={key.steps} (its key names the times 0..{key.steps}),"
            f" not with the K={answer_steps} given",
        )


def _key(source: str | Formula | Key | None, file: str, first_line: int) -> Key | None:
    """The key from whatever carries it (None when nothing does); FormatError when its At
    atoms skip a time, so that it describes no walk."""
    key: Key | None = None
    if isinstance(source, Key):
        key = source
    elif isinstance(source, Formula):
        if source.names:
            key = key_from_names(source.names, file, source.name_lines)
        if (key is None or not key.at) and source.back_matter:
            key = parse_key(source.back_matter, file, first_line)
    elif isinstance(source, str):
        key = parse_key(source, file, first_line)
    if key is not None:
        refuse_missing_times(key, file)
    return key


def _required_key(source: str | Formula | Key | None, file: str, first_line: int) -> Key:
    """The key, or a FormatError saying what a key looks like."""
    key = _key(source, file, first_line)
    if key is None or not key.at:
        raise _no_key(file)
    return key


def _no_key(file: str) -> FormatError:
    """The error for an answer that no key naming the At(N,I) atoms comes with."""
    return FormatError(
        file,
        None,
        "no key names the At(N,I) atoms (expected back matter lines like "
        "`1 At(START,0)` or `1 START 0`, or `c var 1 At(START,0)` comments in the CNF)",
    )


_KEY_LINE = re.compile(r"\s*(?:[0-9]+[ \t]+\S+|\S+[ \t]+[0-9]+)\s*")
"""A back matter line that names an atom: a number and one name, either way round (``1
Owner(1,Ana)``, ``1 P``, ``P 1``); a sentence (``3 moves were not enough``) does not."""


def _refuse_no_maze_key(source: str | Formula | Key | None, key: Key | None, file: str) -> None:
    """Raise `_no_key`'s error beside "unsatisfiable" when the key source names atoms but
    no At(N,I) atom: a CNF given for the answer (a Formula or a Key), or back matter with
    key lines (`_KEY_LINE`: a zebra puzzle's, a toy DP input's ``1 P`` or ``P 1``). That
    formula is no maze's encoding, so its "unsatisfiable" is no maze's NO SOLUTION — as its
    "satisfiable" has no path (`_required_key`; audit 28-C #1). Nothing at all (a bare DP
    output ``0``, back matter of sentences only) stays the back end's NO SOLUTION."""
    if source is None or (key is not None and key.at):
        return
    if isinstance(source, str):
        named = key is not None and bool(key.has or key.aux)
        if not named and not any(_KEY_LINE.fullmatch(line) for line in text_lines(source)):
            return
    raise _no_key(file)
