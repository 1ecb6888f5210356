"""The key (the back matter after the clauses): which atom number means which At/Has atom.

What satkit writes — the most common convention in real files — is one line
per atom, number first::

    1 At(START,0)
    55 Has(GOLD,0)
    73 Aux(amo,0,1)        (compact encoding only: an auxiliary variable)

What it reads, because real front ends write it (see ../shared/compat):

- ``n At(N,I)`` / ``n Has(T,I)`` in any order, numbers right-aligned
  (``  1 At(START,0)``) or not;
- ``n NODE I`` — At atoms only, often in hash order (``27 D 2``), including
  the empty node name a ``split(" ")`` bug produces (``49  0``);
- name first, number last (``At(A,1) 5``), the order some DP back matter uses;
- any other line (free text, blank lines, DP-only keys such as ``1 P``) is not
  an At/Has line and is skipped; but an ``Available(T,I)`` atom is the toll
  variant's (2014/2017), which satkit does not read, and is an error.

A line naming an atom is an error when it holds a byte that is not UTF-8 (the DP
readers keep such bytes in the back matter, which `satkit dp` copies byte for byte),
an atom number above MAX_VARIABLES, or a time above `maze.parser.MAX_STEPS`.

Names split at the *last* comma, so a node called ``A,B`` still reads back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from formats.dimacs import beyond_max_message, literal_for_message, literal_magnitude
from formats.errors import FormatError
from formats.formula import MAX_VARIABLES
from formats.streams import bad_byte, text_lines
from maze.parser import MAX_STEPS

AUX_PREFIX = "Aux("
"""Names of auxiliary variables start with this; decoders skip them."""

_NUMBER_FIRST = re.compile(r"\s*([0-9]+)[ \t](.*?)\s*")
_NAME_FIRST = re.compile(r"\s*(\S.*?)\s+([0-9]+)\s*")
_AT = re.compile(r"At\((.*),([0-9]+)\)")
_HAS = re.compile(r"Has\((.*),([0-9]+)\)")
_NODE_TIME = re.compile(r"(\S*)\s+([0-9]+)")
_DIGITS = re.compile(r"[0-9]+")
_LAST_NUMBER = re.compile(r"([0-9]+)\)?\Z")
_MAX_DIGITS = len(str(MAX_VARIABLES))


def at_name(node: str, time: int) -> str:
    """The name of the atom At(node,time)."""
    return f"At({node},{time})"


def has_name(treasure: str, time: int) -> str:
    """The name of the atom Has(treasure,time)."""
    return f"Has({treasure},{time})"


def key_text(names: Mapping[int, str]) -> str:
    """Key lines ``n NAME`` in atom order, each ending in a newline."""
    return "".join(f"{atom} {names[atom]}\n" for atom in sorted(names))


def meaning(name: str) -> tuple[str, str, int] | None:
    """What a key name says: ``("at", node, time)``, ``("has", treasure, time)``,
    ``("aux", name, 0)``, or None for a name that is none of them.

    ``name`` is the text after the number (``At(C,2)``, ``C 2``, `` 0``).

    A time of thousands of digits (more than ``int`` takes) comes back as
    MAX_VARIABLES + 1, above any a walk can have (`literal_magnitude`).

    >>> meaning("At(C,2)"), meaning("C 2"), meaning("Has(GOLD,0)"), meaning("P")
    (('at', 'C', 2), ('at', 'C', 2), ('has', 'GOLD', 0), None)
    """
    text = name.strip()
    match = _AT.fullmatch(text)
    if match:
        return ("at", match.group(1), _number(match.group(2)))
    match = _HAS.fullmatch(text)
    if match:
        return ("has", match.group(1), _number(match.group(2)))
    # before the auxiliary prefix: a node may be named `Aux(q` (`Aux(q 1` in the node-time
    # form), where an auxiliary atom's name holds no blank
    match = _NODE_TIME.fullmatch(text)
    if match:
        return ("at", match.group(1), _number(match.group(2)))
    if text.startswith(AUX_PREFIX):
        return ("aux", text, 0)
    if _DIGITS.fullmatch(text) and name[:1].isspace():  # (str.isdigit also takes `²`, `٣`)
        return ("at", "", _number(text))  # `49  0`: a phantom empty node name, kept as written
    return None


def _number(digits: str) -> int:
    """The value of ASCII ``digits``; MAX_VARIABLES + 1 for more digits than it has (``int``
    refuses thousands: audit 26-C F3)."""
    if len(digits) <= _MAX_DIGITS:
        return int(digits)  # (the common case, at int's speed)
    return literal_magnitude(digits.encode("ascii"))


@dataclass
class Key:
    """The At/Has atoms a key names.

    - ``at``: atom -> (node, time); ``has``: atom -> (treasure, time);
      ``aux``: atoms marked auxiliary.
    - ``line_of``: atom -> the line (in the file) that names it, for messages.
    - ``source``: the name of that file (None when not known).
    - ``steps``: K, the largest time an At atom names (-1 when there are none).
    - ``full_names``: some At atom is named ``At(N,I)``, the form of front ends that
      name every atom they make (the ``N I`` form names At atoms only).
    """

    at: dict[int, tuple[str, int]] = field(default_factory=dict)
    has: dict[int, tuple[str, int]] = field(default_factory=dict)
    aux: set[int] = field(default_factory=set)
    line_of: dict[int, int | None] = field(default_factory=dict)
    source: str | None = field(default=None, compare=False)
    full_names: bool = field(default=False, compare=False)

    def where(self, atom: int, file: str) -> tuple[str, int | None, str]:
        """How an error about the answer in ``file`` cites the key line naming ``atom``:
        ``(file, line, suffix)``, the line only when it is a line of ``file`` itself, else
        a suffix such as `` (atom 19 is named on line 63 of x.dp)``."""
        line = self.line_of.get(atom)
        if line is None or self.source in (None, file):
            return file, line, ""
        return file, None, f" (atom {atom} is named on line {line} of {self.source})"

    @property
    def steps(self) -> int:
        """K: the largest time of an At atom (-1 without At atoms)."""
        return max((time for _node, time in self.at.values()), default=-1)

    def missing_time(self) -> int | None:
        """The first time 0..K that no At atom names (None when every one is named): a
        key of a walk names at least one At atom of each time. Looks at no more times
        than the key has At atoms, however large K is.

        >>> parse_key("1 At(START,0)\\n2 At(A,9)\\n").missing_time()
        1
        """
        times = {time for _node, time in self.at.values()}
        for time in range(len(times) + 1):
            if time not in times:
                return time if time <= self.steps else None
        return None

    @property
    def nodes(self) -> list[str]:
        """The node names, in order of first appearance by atom number."""
        return list(dict.fromkeys(node for _atom, (node, _time) in sorted(self.at.items())))

    @property
    def treasures(self) -> list[str]:
        """The treasure names, in order of first appearance by atom number."""
        return list(dict.fromkeys(t for _atom, (t, _time) in sorted(self.has.items())))

    @property
    def atoms(self) -> int:
        """The largest atom number the key names (0 for none)."""
        return max([*self.at, *self.has, *self.aux], default=0)


def cut_short(key: Key, atoms: int) -> str | None:
    """Why ``key`` looks cut short at a line end, or None; ``atoms`` is the largest atom
    the answer assigns. (A key cut mid-line is an error of `parse_key`.)

    Two signs, true of every front end's key in ../shared/compat: each time names the
    same number of At atoms, so a last time naming fewer lost its end; and a key naming
    ``At(N,I)`` names every atom (Has and auxiliary ones too), so an answer assigning
    atoms above the key's lost theirs. A key of ``N I`` lines cut exactly between two
    times shows neither: it reads as the key of a shorter walk.

    >>> key = parse_key("1 At(START,0)\\n2 At(A,0)\\n3 At(START,1)\\n")
    >>> cut_short(key, 3)
    'the key names 1 At atom of time K=1 and 2 of time 0'
    >>> cut_short(parse_key("1 At(START,0)\\n2 At(START,1)\\n"), 5)
    'the answer assigns atoms up to 5 and the key names none above 2'
    """
    if not key.at:
        return None
    per_time: dict[int, int] = {}
    for _node, time in key.at.values():
        per_time[time] = per_time.get(time, 0) + 1
    last = per_time[key.steps]
    most, when = max((count, -time) for time, count in per_time.items())
    if last < most:
        atom = "At atom" if last == 1 else "At atoms"
        return f"the key names {last} {atom} of time K={key.steps} and {most} of time {-when}"
    if key.full_names and atoms > key.atoms:
        return f"the answer assigns atoms up to {atoms} and the key names none above {key.atoms}"
    return None


def refuse_missing_times(key: Key, file: str) -> None:
    """FormatError (about ``file``, citing the key line of the latest At atom) when the
    key's At atoms skip a time 0..K: such a key describes no walk, and its K may be one bad
    line's (a K of 10^8 made decoding take 53 s and 7 GB)."""
    missing = key.missing_time() if key.at else None
    if missing is None:
        return
    last = max(key.at, key=lambda atom: key.at[atom][1])
    name, line, cited = key.where(last, file)
    raise FormatError(
        name, line, f"the key names At atoms up to time {key.steps} but none of time "
        f"{missing}: it is no key of a walk{cited}",
    )  # fmt: skip


def _time_beyond(name: str) -> str:
    """The message refusing the key name ``name`` (``At(N,I)``, ``Has(T,I)`` or ``N I``,
    its time last) for a time above `MAX_STEPS`; a time of many digits is cut short."""
    text = name.strip()
    found = _LAST_NUMBER.search(text)
    assert found is not None  # (`meaning` read a time there)
    shown = literal_for_message(found.group(1).encode("ascii"))
    return (
        f"the time of {text[: found.start(1)]}{shown}{text[found.end(1) :]} is more than "
        f"{MAX_STEPS:,}, the largest K: a walk of K moves has an At atom for each of its "
        f"K+1 times, and DIMACS numbers at most {MAX_VARIABLES:,} variables"
    )


def _atom(digits: str, what: tuple[str, str, int] | None, file: str, line: int) -> int:
    """The atom number ``digits`` of a key line whose name means ``what`` (`meaning`): a
    FormatError when it is above MAX_VARIABLES and the line names an atom (a line of free
    text, ``what`` None, is skipped, whatever its numbers)."""
    atom = _number(digits)
    if atom > MAX_VARIABLES and what is not None:
        raise FormatError(file, line, beyond_max_message("atom", digits.encode("ascii")))
    return atom


def _refuse_kept_byte(label: str, file: str, line: int) -> None:
    """FormatError when the name ``label`` of a key line holds a byte that is not UTF-8 and
    the line is read as naming an atom (a line of free text is skipped, whatever its bytes:
    `satkit dp` copies them byte for byte, audit 26-A F1)."""
    found = bad_byte(label)
    if found is None:
        return
    stripped = label.strip()
    if stripped.startswith(("At(", "Has(", TOLL_ATOM)) or meaning(label) is not None:
        raise FormatError(file, line, f"not UTF-8 text (byte 0x{found[1]:02x})")


def _is_atom_name(text: str) -> bool:
    """True for ``At(…)``, ``Has(…)`` and ``Aux(…)`` names (the forms a name-first line may use)."""
    return bool(_AT.fullmatch(text) or _HAS.fullmatch(text)) or text.startswith(AUX_PREFIX)


TOLL_ATOM = "Available("
"""The toll variant's atoms (2014/2017: treasures pay tolls) start with this."""


def _add(
    key: Key,
    seen: dict[str, int],
    atom: int,
    name: str,
    line: int | None,
    file: str,
    what: tuple[str, str, int] | None,
) -> None:
    """Record one named atom, ``what`` being ``meaning(name)``; a number or an At/Has name
    used twice is an error, and so is an atom of the toll variant, whose walks the At/Has
    atoms alone do not describe."""
    if what is None:
        if name.strip().startswith(TOLL_ATOM):
            raise FormatError(
                file,
                line,
                f"{name.strip()}: this key is of the toll variant of the maze (2014/2017), "
                "which satkit does not read",
            )
        return
    kind, label, time = what
    if time > MAX_STEPS:
        raise FormatError(file, line, _time_beyond(name))
    if atom in key.line_of:
        raise FormatError(file, line, f"atom {atom} is named twice in the key")
    canonical = label if kind == "aux" else f"{kind}({label},{time})"
    if canonical in seen:
        raise FormatError(
            file,
            line,
            f"{name.strip()} is named twice in the key (atoms {seen[canonical]} and {atom})",
        )
    seen[canonical] = atom
    key.line_of[atom] = line
    if kind == "at":
        key.at[atom] = (label, time)
        if not key.full_names and _AT.fullmatch(name.strip()):
            key.full_names = True
    elif kind == "has":
        key.has[atom] = (label, time)
    else:
        key.aux.add(atom)


def _source(name: str) -> str | None:
    """The file a key was read from, for `Key.where` (None for text that came from no file)."""
    return None if name == "<string>" else name


def parse_key(text: str, name: str = "<string>", first_line: int = 1) -> Key:
    """Read the At/Has atoms a back matter names (see the module docstring for the forms).

    ``first_line`` is the file line of the back matter's first line, so that
    errors point into the file. Lines that name no At/Has/Aux atom are
    skipped. Raises :class:`FormatError` for an atom number or an At/Has name
    used twice.

    >>> key = parse_key("1 At(START,0)\\n2 At(A,0)\\n 3 Has(GOLD,0)\\n27 D 2\\n")
    >>> key.at[1], key.has[3], key.at[27], key.steps
    (('START', 0), ('GOLD', 0), ('D', 2), 2)
    """
    key = Key(source=_source(name))
    seen: dict[str, int] = {}
    kept = bad_byte(text) is not None  # (bytes that are not UTF-8, kept by the DP readers)
    for number, line in enumerate(text_lines(text), start=first_line):
        if not line.strip():
            continue
        match = _NUMBER_FIRST.fullmatch(line)
        if match:
            label = match.group(2)
            if kept:
                _refuse_kept_byte(label, name, number)
            what = meaning(label)
            if what is None and label.startswith(("At(", "Has(")):
                # `37 At(START,`: a key cut short mid-line was skipped as free text, and
                # the walk read up to the times left (audit 21-B #1)
                form = "At(NODE,TIME)" if label.startswith("At(") else "Has(TREASURE,TIME)"
                raise FormatError(
                    name, number, f"{label} is not an atom name {form} (the key cut short?)"
                )
            atom = _atom(match.group(1), what, name, number)
            _add(key, seen, atom, label, number, name, what)
            continue
        match = _NAME_FIRST.fullmatch(line)
        if match and _is_atom_name(match.group(1)):
            label = match.group(1)
            if kept:
                _refuse_kept_byte(label, name, number)
            what = meaning(label)
            _add(key, seen, _atom(match.group(2), what, name, number), label, number, name, what)
    return key


def key_from_names(
    names: Mapping[int, str] | Iterable[tuple[int, str]],
    name: str = "<string>",
    lines: Mapping[int, int] | None = None,
) -> Key:
    """A :class:`Key` from a name table (e.g. a DIMACS file's ``c var n NAME`` comments);
    ``lines``, when known, gives the file line naming each atom, for errors."""
    key = Key(source=_source(name))
    seen: dict[str, int] = {}
    items = names.items() if isinstance(names, Mapping) else names
    for atom, label in sorted(items):
        line = None if lines is None else lines.get(atom)
        _add(key, seen, atom, label, line, name, meaning(label))
    return key
