"""An encoded maze: its clauses (streamed), its key, and writers for the DP and DIMACS formats.

:func:`encode` picks the encoding — ``assignment`` (the 8 categories exactly,
:mod:`maze.encoder`) or ``compact`` (category 1 as a sequential counter,
:mod:`maze.compact`) — and returns a :class:`MazeCNF`. Nothing is built until
it is asked for: :meth:`MazeCNF.clauses` yields clauses one by one, and the
writers stream text blocks, so a maze whose formula would not fit in memory as
lists still encodes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from formats.dimacs import BACK_MATTER_PREFIX, NAME_PREFIX, comment_lines
from formats.formula import Formula
from formats.streams import atomic_output
from maze.compact import aux_count, aux_names, compact_parts
from maze.encoder import Atoms, Part, assignment_parts
from maze.model import Maze

ENCODINGS = ("assignment", "compact")
"""The encodings :func:`encode` knows."""

KEY_FORMS = ("names", "node-time")
"""How the DP input's key names atoms: ``names`` (``5 At(B,0)``, ``55 Has(GOLD,0)``,
``73 Aux(amo,0,1)``: every variable) or ``node-time`` (``5 B 0``: the At atoms only, the form
seed 001 suggests, which some back ends read and no other)."""

_CHUNK = 1 << 16  # clause lines per write when formatting generically

@dataclass
class MazeCNF:
    """A maze encoded as CNF.

    - ``maze``, ``encoding`` (``"assignment"`` or ``"compact"``), ``atoms``
      (the At/Has numbering), ``parts`` (blocks of clauses, in order).
    - ``nvars``: At/Has atoms plus auxiliary variables (compact only).
    """

    maze: Maze
    encoding: str
    atoms: Atoms
    parts: list[Part]
    nvars: int

    @property
    def clause_count(self) -> int:
        """The number of clauses, known without building them."""
        return sum(part.count for part in self.parts)

    @property
    def aux_vars(self) -> int:
        """How many variables are auxiliary (not At/Has atoms)."""
        return self.nvars - self.atoms.count

    def clauses(self) -> Iterator[list[int]]:
        """Every clause, in order, one at a time."""
        for part in self.parts:
            yield from part.clauses()

    def clause_list(self) -> list[list[int]]:
        """Every clause in one list (for handing to a solver)."""
        return list(self.clauses())

    def name_list(self) -> list[str]:
        """The name of every variable in order (entry 0 is variable 1)."""
        names = self.atoms.name_list()
        if self.nvars > self.atoms.count:
            names += aux_names(self.maze)
        return names

    def names(self) -> dict[int, str]:
        """The name of every variable: ``At(N,I)``, ``Has(T,I)``, ``Aux(amo,I,j)``."""
        return dict(enumerate(self.name_list(), start=1))

    def key_text(self, form: str = "names") -> str:
        """The key (back matter), in one of `KEY_FORMS`: ``n At(N,I)`` … ``n Has(T,I)`` …
        (``n Aux(…)``) lines, or ``n N I`` lines for the At atoms."""
        return "".join(self.key_pieces(form))

    def key_pieces(self, form: str = "names") -> Iterator[str]:
        """`key_text` in pieces of at most `_CHUNK` lines, so that writing the key of a big
        maze holds one piece as text, not the whole key twice over (a pipe's 235 MB output
        peaked at 514 MB: audit 19-H #3)."""
        _check_key_form(form)
        if form == "node-time":
            atoms = self.atoms
            lines: list[str] = []
            number = 0
            for time in range(atoms.steps + 1):
                for node in atoms.nodes:
                    number += 1
                    lines.append(f"{number} {node} {time}\n")
                    if len(lines) >= _CHUNK:
                        yield "".join(lines)
                        lines.clear()
            if lines:
                yield "".join(lines)
            return
        names = self.name_list()
        for start in range(0, len(names), _CHUNK):
            yield "".join(
                [f"{number} {name}\n" for number, name in
                 enumerate(names[start : start + _CHUNK], start + 1)]
            )  # fmt: skip

    def least_bytes(self, key_form: str = "names") -> int:
        """A sure lower bound on the bytes `write` gives (either format, the DP input's key
        in ``key_form``): the key, whose size is exact, plus for every clause its line end,
        and for category 1 (two negative literals, ``-a -b``, of atoms numbered from step
        I's first) the digits of both. A K whose output surely cannot fit on the disk is
        refused with it before anything is written."""
        atoms = self.atoms
        n, t, k = atoms.n, atoms.t, atoms.steps
        steps_digits = _digit_sum(1, 0, k + 1)  # of I = 0..K in the names
        if key_form == "node-time":  # "N NODE I\n" for the At atoms
            named = atoms.has_base
            names = (k + 1) * sum(1 + len(node) for node in atoms.nodes) + n * steps_digits
        else:
            named = atoms.count
            names = (k + 1) * sum(5 + len(node) for node in atoms.nodes) + n * steps_digits
            names += (k + 1) * sum(6 + len(treasure) for treasure in atoms.treasures)
            names += t * steps_digits
        numbers = _digit_sum(1, 1, named)  # of atoms 1..named
        key = numbers + names + 2 * named  # "N NAME\n"
        lines = 2 * self.clause_count  # a literal and a line end at least
        if self.parts and self.parts[0].name == "one_place_at_a_time":
            pairs = n * (n - 1) // 2
            # each "-a -b" line of step I: 2 numbers >= I*n + 1, 2 minus signs, a blank
            # and the line end (2 of those 4 bytes are counted above)
            lines += pairs * (2 * _digit_sum(n, 1, k + 1) + 2 * (k + 1))
        return key + lines

    def comments(self) -> list[str]:
        """Comment lines for a DIMACS export: where the formula comes from and what it holds."""
        return [
            f"maze {self.maze.name}: {len(self.maze.nodes)} nodes, "
            f"{len(self.maze.treasures)} treasures, K={self.maze.steps}",
            f"{self.encoding} encoding: {self.clause_count} clauses, {self.atoms.count} "
            f"At/Has atoms, {self.aux_vars} auxiliary variables",
        ]

    def to_formula(self, *, with_key: bool = True) -> Formula:
        """The whole formula as a :class:`~formats.formula.Formula` (names and key included)."""
        return Formula(
            nvars=self.nvars,
            clauses=self.clause_list(),
            comments=self.comments(),
            names=self.names(),
            back_matter=self.key_text() if with_key else None,
        )

    def lines(self, end: str = "") -> Iterator[str]:
        """The clauses as text blocks of lines, each line ending in ``end`` (no final newline).

        ``end=""`` gives the DP input format's clause lines, ``end=" 0"`` DIMACS.
        """
        for part in self.parts:
            if part.count == 0:
                continue
            if part.lines is not None:
                yield from part.lines(end)
                continue
            chunk: list[str] = []
            for clause in part.clauses():
                chunk.append(" ".join(map(str, clause)) + end)
                if len(chunk) >= _CHUNK:
                    yield "\n".join(chunk)
                    chunk.clear()
            if chunk:
                yield "\n".join(chunk)

    def write_dp_input(self, handle: IO[str], key_form: str = "names") -> None:
        """Write the assignment's DP input: clause lines, a line ``0``, then the key (in
        ``key_form``, one of `KEY_FORMS`)."""
        write = handle.write
        for block in self.lines(""):
            write(block)
            write("\n")
        write("0\n")
        for piece in self.key_pieces(key_form):
            write(piece)

    def write_dimacs(self, handle: IO[str], *, with_key: bool = False) -> None:
        """Write DIMACS: comments, ``c var N NAME`` lines, ``p cnf``, the clauses.

        With ``with_key`` the key also rides in ``c back-matter`` lines, so
        ``satkit convert`` can give back the DP input byte for byte.
        """

        write = handle.write
        for comment in self.comments():
            write("".join(comment_lines(comment)))
        names = self.name_list()
        write("".join([f"c {NAME_PREFIX}{var} {name}\n" for var, name in enumerate(names, 1)]))
        if with_key:
            for piece in self.key_text().splitlines(keepends=True):
                write(f"c {BACK_MATTER_PREFIX}{json.dumps(piece, ensure_ascii=False)}\n")
        write(f"p cnf {self.nvars} {self.clause_count}\n")
        for block in self.lines(" 0"):
            write(block)
            write("\n")

    def write(
        self,
        path: str | os.PathLike[str],
        to: str = "assignment",
        *,
        inputs: tuple[str | os.PathLike[str], ...] = (),
        key_form: str = "names",
    ) -> None:
        """Write to ``path`` (``-`` = stdout) atomically; ``to``: ``assignment`` or ``dimacs``
        (whose ``c var`` comments name every variable: ``key_form`` is for ``assignment``)."""
        if to not in ("assignment", "dimacs"):
            raise ValueError(f"unknown output format {to!r} (assignment or dimacs)")
        _check_key_form(key_form)  # before the output is opened
        with atomic_output(path, inputs=tuple(inputs)) as handle:
            if to == "dimacs":
                self.write_dimacs(handle)
            else:
                self.write_dp_input(handle, key_form)


def _check_key_form(form: str) -> None:
    if form not in KEY_FORMS:
        raise ValueError(f"unknown key form {form!r} (valid: {', '.join(KEY_FORMS)})")


def _digit_sum(a: int, b: int, count: int) -> int:
    """The number of decimal digits of ``a*i + b`` summed over i = 0..count-1 (a >= 0,
    b >= 0), in time logarithmic in the values.

    >>> _digit_sum(1, 0, 12) == sum(len(str(i)) for i in range(12))
    True
    >>> _digit_sum(7, 3, 1000) == sum(len(str(7 * i + 3)) for i in range(1000))
    True
    """
    if count <= 0:
        return 0
    if a == 0:
        return count * len(str(b))
    total = 0
    done = 0  # values a*i + b for i < done are counted
    digits = len(str(b))
    while done < count:
        # the first i whose value has more than `digits` digits
        bound = 10**digits
        nxt = max(done, -(-(bound - b) // a))
        nxt = min(nxt, count)
        total += (nxt - done) * digits
        done = nxt
        digits += 1
    return total


def encode(maze: Maze, encoding: str = "assignment") -> MazeCNF:
    """Encode ``maze`` (its K is ``maze.steps``) as CNF.

    ``encoding``: ``"assignment"`` — exactly the 8 categories of the
    assignment (334 clauses over 72 atoms for its example maze at K = 5);
    ``"compact"`` — the same answers with category 1 as a sequential counter.

    >>> from maze.parser import parse_maze
    >>> small = parse_maze("START A B\\nGOLD WAND\\n3\\nSTART TREASURES NEXT A B\\n"
    ...                    "A TREASURES GOLD NEXT START\\nB TREASURES WAND NEXT START\\n")
    >>> cnf = encode(small)
    >>> cnf.clause_count, cnf.nvars
    (46, 20)
    """
    atoms = Atoms(maze)
    if encoding == "assignment":
        return MazeCNF(maze, encoding, atoms, assignment_parts(maze, atoms), atoms.count)
    if encoding == "compact":
        parts = compact_parts(maze, atoms)
        return MazeCNF(maze, encoding, atoms, parts, atoms.count + aux_count(maze))
    raise ValueError(f"unknown encoding {encoding!r} (valid: {', '.join(ENCODINGS)})")
