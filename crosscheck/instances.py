"""What crosscheck runs on: finding instance files, and loading each as clauses plus what it means.

An :class:`Instance` is one formula handed to every solver, parsed once by
our own readers:

- ``cnf``: a DIMACS file (``.cnf``, also gzip/xz/bz2-compressed) or an
  assignment DP-input file;
- ``maze``: a maze in the front-end format (``.txt``), encoded with
  :func:`maze.cnf.encode`; its key names the At/Has atoms and its maze is
  known, so every SAT answer is decoded to a path and validated, and the
  layered search gives a reference answer;
- ``maze-cnf``: a CNF whose ``c var N At(X,I)`` comments (or DP back matter)
  name At/Has atoms. Answers are decoded to paths; the maze itself is
  known when ``--maze`` names it, when a ``c maze FILE: …`` comment (what
  ``satkit maze encode --to dimacs`` writes) points to a readable maze, or
  when a maze ``<stem>.txt`` sits beside the CNF.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from crosscheck.registry import solver_kind
from formats.detect import before_comment, parse_detected
from formats.dimacs import parse_dimacs
from formats.errors import FormatError
from formats.memory import available_memory, shortage
from formats.streams import (
    decode_text,
    display_name,
    named_dimacs,
    read_bytes,
    same_file,
    strip_compression,
    text_lines,
)
from maze.cnf import ENCODINGS, encode
from maze.key import Key, key_from_names, parse_key, refuse_missing_times
from maze.model import Maze
from maze.parser import parse_maze, read_maze

MAZE_SUFFIXES = (".txt",)
_NAMED_ATOM = re.compile(r"(At|Has)\(.*,[0-9]+\)|Aux\(.*")
_MAZE_COMMENT = re.compile(r"maze (.+?): [0-9]+ nodes, ")
_NUMBER_RUN = re.compile(r"([0-9]+)")


@dataclass
class Instance:
    """One formula to cross-check, with what is known about its meaning.

    - ``name``: how it is shown (the path as given, or a generated label);
      ``path``: the absolute path of its file (None when generated).
    - ``family``: the folder it sits in, or the fuzz family.
    - ``kind``: ``cnf``, ``maze`` or ``maze-cnf`` (see the module docstring).
    - ``nvars``, ``clauses``: the formula every solver gets.
    - ``key``: the At/Has atoms (maze kinds); ``maze``: the maze, with K set to
      the key's K, when known; ``encoding``: how a maze was encoded.
    - ``notes``: what the loader wants the user to know (warnings, a maze
      file that could not be used).
    - ``from_maze``: a part of a maze's formula checked as a plain CNF (what the
      shrinker checks): our ``dpll`` searches it with the maze options all the same.
    """

    name: str
    clauses: list[list[int]]
    nvars: int
    kind: str = "cnf"
    family: str = ""
    path: str | None = None
    key: Key | None = None
    maze: Maze | None = None
    encoding: str | None = None
    seed: int | None = None
    notes: list[str] = field(default_factory=list)
    from_maze: bool = False

    @property
    def maze_formula(self) -> bool:
        """Whether the clauses are (part of) a maze's encoding."""
        return self.kind != "cnf" or self.from_maze


def natural_key(text: str) -> list[object]:
    """Sort key that orders ``x-2`` before ``x-10`` (numbers compared as numbers).

    The split alternates text and runs of ASCII digits, so only the odd places are
    numbers: ``str.isdigit`` also holds for ``²`` (which ``int`` refuses) and ``٣`` (which
    it reads, putting an int where other keys hold text), and either name crashed a folder
    walk (review 25)."""
    parts = _NUMBER_RUN.split(text)
    return [int(part) if place % 2 else part for place, part in enumerate(parts)]


def is_instance_file(name: str) -> bool:
    """True for the file names a folder walk picks up (.cnf, .dimacs, maze .txt; compressed too)."""
    return named_dimacs(name) or strip_compression(name.lower()).endswith(MAZE_SUFFIXES)


def discover(paths: Iterable[str]) -> list[str]:
    """The instance files named by ``paths``: files as given, folders walked recursively.

    Folder contents are filtered by :func:`is_instance_file` and sorted in
    natural order; in a folder, what exists but is no regular file (a named pipe
    would wait for a writer for ever, a device) is passed over, while a file given
    by name is taken as it is (``<(…)`` is a pipe). A file reached twice is listed
    once; a folder that cannot be read is listed too (`load_instance` says why). Raises
    FormatError for a path that does not exist.
    """
    found: list[str] = []
    seen: set[str] = set()

    def add(path: str) -> None:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            found.append(path)

    for path in paths:
        if os.path.isdir(path):
            for file in sorted(_walk(path), key=natural_key):
                add(file)
        elif path == "-" or _exists(path):
            add(path)
        else:
            raise FormatError(path, None, "No such file or directory")
    return found


def _exists(path: str) -> bool:
    """False only for a path that surely does not exist: one that cannot be looked at (a
    folder on its way denies it) is listed, and its record says why."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except (OSError, ValueError):
        return True
    return True


def _walk(top: str) -> list[str]:
    """The instance files under folder ``top`` (linked folders included, each real folder
    once), and the folders that could not be read (walking past them would check fewer
    instances without a word: each is listed, and its record says why)."""
    collected: list[str] = []

    def unreadable(exc: OSError) -> None:
        collected.append(exc.filename if exc.filename is not None else top)

    walked = {os.path.realpath(top)}
    pending = [top]  # a stack, not os.walk: it recursed per level on Python 3.11, and a
    # folder 1,000 deep gave a RecursionError traceback
    deferred: list[str] = []  # linked folders, walked after every real one: a folder
    while pending or deferred:  # reached both ways is named by its real place
        if not pending:
            link = deferred.pop(0)
            real = os.path.realpath(link)
            if real not in walked:
                walked.add(real)
                pending.append(link)
            continue
        folder = pending.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError as exc:
            if exc.filename is None:
                exc.filename = folder
            unreadable(exc)
            continue
        dirs, files = [], []
        for entry in listed:
            try:
                is_dir = entry.is_dir()  # (follows links: linked folders are walked too)
            except OSError:
                is_dir = False
            (dirs if is_dir else files).append(entry.name)
        collected.extend(
            os.path.join(folder, f)
            for f in sorted(files, key=natural_key)
            if is_instance_file(f) and not _special(os.path.join(folder, f))
        )
        # each real folder once: a link back up would loop, and two links to one folder
        # would check its instances twice
        kept = []
        for name in sorted(dirs, key=natural_key):
            path = os.path.join(folder, name)
            if os.path.islink(path):
                deferred.append(path)
                continue
            real = os.path.realpath(path)
            if real not in walked:
                walked.add(real)
                kept.append(path)
        pending.extend(reversed(kept))  # depth first, in natural order, as os.walk went
    return collected


def _special(path: str) -> bool:
    """True for something that exists but is no regular file (a dangling link is not:
    reading it gives the one error line it deserves)."""
    return os.path.exists(path) and not os.path.isfile(path)


def _first_tokens(text: str) -> list[str]:
    for line in text_lines(text.lstrip("\ufeff")):
        if line.split():
            return line.split()
    return []


def looks_like_maze(text: str) -> bool:
    """True when the first non-blank line is not CNF (no ``c``/``p``/``%`` line, not integers
    before a ``c`` comment word, as in ``1 2 0 c note``)."""
    tokens = _first_tokens(text)
    if not tokens or tokens[0][0] in "cp%":
        return False
    return not all(token.lstrip("-").isdigit() for token in before_comment(tokens))


MAZE_BYTES: dict[str, tuple[int, int]] = {
    "ours": (180, 1400),
    "pysat": (210, 1100),
    "external": (170, 1250),
}
"""Bytes a crosscheck worker needs per clause and per variable of a maze instance, by the
kind of solver it runs (`solver_kind`): a lower bound, to refuse a K that cannot fit.

Measured (summed RSS of the worker and its solver processes, `-s` one solver at a time)
as the growth between two Ks of two mazes, whose clause-to-variable ratios differ 6-fold
(data/maze/gen-60-oneway.txt at K 400 and 800, data/maze/example.txt at K 5,000 and 20,000,
assignment encoding), then rounded down; the compact encoding of both stays above the
bound. A variable costs far more than a clause: its name in the key, the layered search's
states, the solver's per-variable lists."""


def maze_memory_need(clauses: int, variables: int, solvers: Sequence[str] = ()) -> int:
    """Bytes a worker surely needs for a maze instance of this size checked by ``solvers``:
    the most any one of them needs, since they run in turn (the least figures of
    `MAZE_BYTES` when no solver is named or none has a measured kind)."""
    kinds = {solver_kind(solver) for solver in solvers} & MAZE_BYTES.keys()
    if not kinds:
        per_clause = min(figures[0] for figures in MAZE_BYTES.values())
        per_variable = min(figures[1] for figures in MAZE_BYTES.values())
        return per_clause * clauses + per_variable * variables
    return max(MAZE_BYTES[kind][0] * clauses + MAZE_BYTES[kind][1] * variables for kind in kinds)


def maze_instance(
    maze: Maze,
    name: str,
    *,
    encoding: str = "assignment",
    family: str = "",
    path: str | None = None,
    solvers: Sequence[str] = (),
    memory: int | None = None,
) -> Instance:
    """A maze encoded with ``encoding``: clauses, key (At/Has/Aux names) and the maze itself.

    Raises FormatError (line 3, the K) when checking it with ``solvers`` surely needs more
    than ``memory`` bytes (default: what this process can still get), before a clause is
    built."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r} (valid: {', '.join(ENCODINGS)})")
    cnf = encode(maze, encoding)
    # a K typo'd as 10^8 filled 24 GB before the worker's watchdog stopped it (review 20);
    # at K 10^6, 100 bytes a clause let 57 million clauses through, which need 30 GB
    # (review 20b): `maze solve` refuses such a K by its own figures
    hint = " (lower K)" if encoding == "compact" else " (lower K, or --encoding compact)"
    need = maze_memory_need(cnf.clause_count, cnf.nvars, solvers)
    lead = f"K gives {cnf.clause_count:,} clauses and {cnf.nvars:,} variables, which"
    have = available_memory() if memory is None else memory
    why = shortage(lead, need, have, "memory", hint)
    if why is not None:
        raise FormatError(name, 3, why)
    key = key_from_names(cnf.names(), name)
    notes = [str(warning) for warning in maze.warnings]
    return Instance(
        name, cnf.clause_list(), cnf.nvars, "maze", family, path, key, maze, encoding, notes=notes
    )


def _named_key(
    names: dict[int, str], file: str, lines: dict[int, int] | None = None
) -> Key | None:
    """The key from ``c var`` names, using only names written ``At(…)``/``Has(…)``/``Aux(…)``
    (other tools' names, such as ``x 3``, must not be mistaken for atoms)."""
    chosen = {var: name for var, name in names.items() if _NAMED_ATOM.fullmatch(name.strip())}
    if not chosen:
        return None
    key = key_from_names(chosen, file, lines)
    return key if key.at else None


def _maze_candidates(path: str | None, comments: list[str], explicit: str | None) -> list[str]:
    """The maze files to try for a maze CNF at ``path``: ``explicit`` (``--maze``; ``-`` is
    stdin), then those its ``c maze FILE:`` comments name, then ``<stem>.txt`` beside it.
    The CNF's own file is never among them (a DP input may be named ``.txt`` too)."""
    candidates: list[str] = []
    if explicit:
        candidates.append(explicit)
    if path is None:
        return candidates
    folder = os.path.dirname(path)
    for comment in comments:
        match = _MAZE_COMMENT.match(comment)
        if match:
            named = match.group(1)
            candidates.extend([os.path.join(folder, named), named])
    stem = strip_compression(os.path.basename(path))
    stem = stem.rsplit(".", 1)[0] if "." in stem else stem
    candidates.append(os.path.join(folder, stem + ".txt"))
    return [c for c in candidates if c == explicit or not same_file(c, path)]


def _find_maze(
    key: Key,
    candidates: list[str],
    notes: list[str],
    maze_data: bytes | None = None,
    *,
    explicit: str | None = None,
    name: str = "<cnf>",
) -> Maze | None:
    """The first candidate maze file that reads and has exactly the key's nodes (and its
    treasures, when the key names Has atoms). When ``maze_data`` is given, it holds the
    ``explicit`` one's bytes, read once by the caller (stdin, a pipe, a device). The
    ``explicit`` one (``--maze``) must fit: if it does not, that is a FormatError, as in
    ``maze decode``. A maze whose K is not the
    key's is checked with the key's K, with a note."""
    for candidate in candidates:
        from_stdin = candidate == explicit and maze_data is not None
        if not from_stdin and not os.path.isfile(candidate):
            continue
        try:
            if from_stdin:
                assert maze_data is not None
                shown = display_name(candidate)
                maze = parse_maze(decode_text(maze_data, shown), shown)
            else:
                maze = read_maze(candidate)
        except (FormatError, OSError) as exc:
            if candidate == explicit:
                raise
            notes.append(f"maze file {display_name(candidate)} not used: {exc}")
            continue
        why = _mismatch("node", key.nodes, maze.nodes)
        if key.has:
            why = why or _mismatch("treasure", key.treasures, maze.treasures)
        if why:
            if candidate == explicit:
                shown = display_name(candidate)
                raise FormatError(name, None, f"--maze {shown} does not fit this CNF: {why}")
            notes.append(f"maze file {display_name(candidate)} not used: {why}")
            continue
        if maze.steps != key.steps:
            notes.append(
                f"the CNF was encoded with K={key.steps}, maze file {display_name(candidate)} "
                f"says K={maze.steps}: paths are checked for K={key.steps}"
            )
        return maze.with_steps(key.steps)
    if explicit is not None and explicit != "-" and not os.path.isfile(explicit):
        raise FormatError(display_name(explicit), None, "--maze: no such file")
    return None


def _mismatch(what: str, named: list[str], declared: list[str]) -> str | None:
    """Why the key's names differ from the maze's, or None when they are the same set."""
    declared_set, named_set = set(declared), set(named)  # (once each: not per name)
    missing = [name for name in named if name not in declared_set]
    if missing:
        return f"it has no {what} {missing[0]}"
    extra = [name for name in declared if name not in named_set]
    if extra:
        return f"the CNF has no atoms for its {what} {extra[0]}"
    return None


def load_instance(
    path: str,
    *,
    encoding: str = "assignment",
    maze_path: str | None = None,
    strict: bool = False,
    data: bytes | None = None,
    maze_data: bytes | None = None,
    solvers: Sequence[str] = (),
    memory: int | None = None,
) -> Instance:
    """Read one instance file (see the module docstring). Raises FormatError for bad input.

    ``encoding`` applies to maze files; ``maze_path`` names the maze of a
    maze CNF (``-`` with ``maze_data``: the maze's bytes, read from stdin);
    ``strict`` makes the DIMACS reader strict; ``data``, when given, is the
    file's content already read (e.g. stdin for ``-``); ``solvers`` and ``memory``
    refuse a maze whose K cannot fit (`maze_instance`). A file named ``.cnf``
    or ``.dimacs`` (also compressed) is DIMACS whatever its first line.
    """
    if data is None:
        if os.path.isdir(path):  # a folder `discover` could not read: say why
            try:
                os.scandir(path).close()
            except OSError as exc:
                why = f"cannot read the folder: {exc.strerror or exc}"
                raise FormatError(display_name(path), None, why) from None
        data = read_bytes(path)
    name = display_name(path)
    absolute = None if path == "-" else os.path.abspath(path)
    family = os.path.basename(os.path.dirname(absolute)) if absolute else ""
    head = data[:65536].decode("utf-8", "replace")
    if not named_dimacs(path) and looks_like_maze(head):
        maze = parse_maze(decode_text(data, name), name, strict=strict)
        return maze_instance(
            maze, name, encoding=encoding, family=family, path=absolute, solvers=solvers,
            memory=memory,
        )
    if strict and maze_path is None:  # --strict means DIMACS (`strict_format`), but a
        # maze's CNF may be DP input, as `maze decode --cnf` reads it (review 27-B #1)
        formula, kind = parse_dimacs(data, name, strict=True), "dimacs"
    else:
        formula, kind = parse_detected(data, name, path, strict=strict)
    notes = [str(warning) for warning in formula.warnings]
    unusable = None  # why the key cannot be used: the clauses are still a CNF to check (seed
    # 001: the back matter "is ignored in the execution of the procedure")
    key = None
    try:
        if kind == "dimacs":
            key = _named_key(formula.names, name, formula.name_lines)
        if key is None and formula.back_matter:
            parsed = parse_key(formula.back_matter, name, formula.back_matter_line or 1)
            key = parsed if parsed.at else None
        if key is not None:
            refuse_missing_times(key, name)  # (its K would be searched to the deadline)
    except FormatError as exc:
        key, unusable = None, exc.message
        where = f"{name}:{exc.line}: " if exc.line else ""  # (printed as the file's warning)
        notes.append(f"{where}the key is not used ({exc.message}): checked as a plain CNF")
    instance = Instance(name, formula.clauses, formula.nvars, "cnf", family, absolute, notes=notes)
    if key is not None:
        instance.kind = "maze-cnf"
        instance.key = key
        candidates = _maze_candidates(absolute, formula.comments, maze_path)
        instance.maze = _find_maze(
            key, candidates, instance.notes, maze_data, explicit=maze_path, name=name
        )
        if instance.maze is None:
            instance.notes.append("the maze of this CNF is unknown: paths decoded, not validated")
    elif maze_path is not None:
        why = (
            "the CNF names no At atoms (no `c var` names, no key)"
            if unusable is None
            else "the CNF's key is not used"
        )
        instance.notes.append(
            f"maze file {display_name(maze_path)} not used: {why}: it is checked as a plain CNF"
        )
    return instance
