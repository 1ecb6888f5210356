"""Zebra puzzles ("who owns the fish?"): the model, its hint kinds, and the CNF encoding.

A zebra puzzle has ``N`` houses in a row (numbered 1..N from left to right) and
some categories (Color, Nationality, …), each with exactly ``N`` values; every
house has exactly one value of every category and every value belongs to exactly
one house. Hints relate values:

- ``same_house(A, B)`` — A and B belong to the same house;
- ``next_to(A, B)``    — A's house and B's house are neighbours (|hA − hB| = 1);
- ``left_of(A, B)``    — A's house is *immediately* left of B's (hB = hA + 1);
- ``fact(h, A)``       — A belongs to house h;
- ``not_fact(h, A)``   — A does not belong to house h;
- ``not_same_house(A, B)``    — A and B belong to different houses (hA ≠ hB);
- ``somewhere_left_of(A, B)`` — A's house is left of B's, at any distance (hA < hB).

Variable numbering (the seed's, generalised from N = 5)::

    var(category c, house h, value v) = N·N·c + N·(h − 1) + v + 1

with c and v counted from 0 in the order the puzzle lists them. Clauses, in
order (the seed's exact order, so the Einstein puzzle reproduces
``EinsteinDimacs.txt`` clause for clause):

1. per category: for each house the pairwise at-most-one clauses (i < j), then
   its at-least-one clause; then for each value the pairwise at-most-one clauses
   over the houses (h1 < h2), then its at-least-one clause;
2. the hints, in the order given (see the ``*_clauses`` functions).

Every hint is encoded with negative binary clauses only; the exactly-one
constraints of step 1 turn those bans into the intended meaning.

A 2-house, 1-category example (Color = Red, Blue; variables 1 = (1,Red),
2 = (1,Blue), 3 = (2,Red), 4 = (2,Blue)) with the hint ``fact(2, Red)``::

    p cnf 4 9
    -1 -2 0
    1 2 0
    -3 -4 0
    3 4 0
    -1 -3 0
    1 3 0
    -2 -4 0
    2 4 0
    3 0
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from formats.dimacs import holds_line_break
from formats.errors import count
from formats.formula import Formula

HINT_KINDS = (
    "same_house", "next_to", "left_of", "fact", "not_same_house", "somewhere_left_of", "not_fact"
)
HOUSE_KINDS = ("fact", "not_fact")
"""The kinds that name a house and one value (``[house, A]``); the others name two values."""
"""The hint kinds a puzzle may use, in the spelling of the data files."""


@dataclass(frozen=True)
class Item:
    """One value of one category, by index: ``Item(1, 4)`` is the 5th value of the 2nd category."""

    category: int
    value: int


@dataclass(frozen=True)
class Hint:
    """A clue. ``a``/``b`` for the relations; ``house`` (1-based) and ``a`` for ``fact``.

    ``text`` is the clue as a sentence (kept for display; the encoding ignores it).
    """

    kind: str
    a: Item
    b: Item | None = None
    house: int | None = None
    text: str = ""


@dataclass(frozen=True)
class Question:
    """ "Which ``find`` goes with ``where``?" — e.g. find Nationality where Pet = Fish."""

    text: str
    find: int
    where: Item


@dataclass
class Puzzle:
    """A zebra puzzle: ``categories`` is a list of (name, values), all of length ``houses``."""

    title: str
    categories: list[tuple[str, list[str]]]
    hints: list[Hint] = field(default_factory=list)
    question: Question | None = None
    description: str = ""

    def __post_init__(self) -> None:
        check_puzzle(self)

    @property
    def houses(self) -> int:
        """The number of houses (= values per category)."""
        return len(self.categories[0][1])

    @property
    def nvars(self) -> int:
        """The number of variables of the encoding: categories × houses × values."""
        return len(self.categories) * self.houses * self.houses

    def var(self, category: int, house: int, value: int) -> int:
        """The variable "house ``house`` (1-based) has value ``value`` of ``category``"."""
        n = self.houses
        return n * n * category + n * (house - 1) + value + 1

    def at(self, item: Item, house: int) -> int:
        """The variable "``item`` is in house ``house``"."""
        return self.var(item.category, house, item.value)

    def unvar(self, var: int) -> tuple[int, int, int]:
        """The inverse of :meth:`var`: (category, house, value) of a variable."""
        n = self.houses
        category, rest = divmod(var - 1, n * n)
        house, value = divmod(rest, n)
        return category, house + 1, value

    def item_name(self, item: Item) -> str:
        """``Category:Value`` — the unambiguous spelling of an item."""
        name, values = self.categories[item.category]
        return f"{name}:{values[item.value]}"

    def value_name(self, item: Item) -> str:
        """The bare value name of an item (``Fish``)."""
        return self.categories[item.category][1][item.value]

    def var_name(self, var: int) -> str:
        """The DIMACS comment name of a variable: ``Category(house,Value)``."""
        category, house, value = self.unvar(var)
        name, values = self.categories[category]
        return f"{name}({house},{values[value]})"


def check_puzzle(puzzle: Puzzle) -> None:
    """Raise ValueError when the puzzle is malformed (sizes, duplicate names, bad hints)."""
    if holds_line_break(puzzle.title):
        raise ValueError(f"title {puzzle.title!r} holds a line break; a title is one line")
    if not puzzle.categories:
        raise ValueError("a puzzle needs at least one category")
    n = len(puzzle.categories[0][1])
    if n < 1:
        raise ValueError("a puzzle needs at least one house")
    seen: set[str] = set()
    for name, values in puzzle.categories:
        if name in seen:
            raise ValueError(f"category {name!r} is listed twice")
        seen.add(name)
        if len(values) != n:
            raise ValueError(
                f"category {name!r} has {count(len(values), 'value')},"
                f" but there {'is' if n == 1 else 'are'} {count(n, 'house')}"
            )
        if len(set(values)) != len(values):
            raise ValueError(f"category {name!r} lists a value twice")
        for text in (name, *values):
            if holds_line_break(text):
                raise ValueError(f"{text!r} holds a line break; a name is one line")
    for hint in puzzle.hints:
        check_hint(puzzle, hint)
    if puzzle.question is not None:
        _check_item(puzzle, puzzle.question.where)
        if not 0 <= puzzle.question.find < len(puzzle.categories):
            raise ValueError(
                f"question asks for category #{puzzle.question.find}, which is unknown"
            )


def check_hint(puzzle: Puzzle, hint: Hint) -> None:
    """Raise ValueError when a hint does not fit the puzzle."""
    if hint.kind not in HINT_KINDS:
        raise ValueError(f"unknown hint kind {hint.kind!r} (known: {', '.join(HINT_KINDS)})")
    _check_item(puzzle, hint.a)
    if hint.kind in HOUSE_KINDS:
        n = len(puzzle.categories[0][1])
        if hint.house is None or not 1 <= hint.house <= n:
            raise ValueError(f"{hint.kind}: house {hint.house} is not between 1 and {n}")
        return
    if hint.b is None:
        raise ValueError(f"{hint.kind} needs two values")
    _check_item(puzzle, hint.b)
    if hint.a == hint.b:
        raise ValueError(f"{hint.kind} needs two different values")


def _check_item(puzzle: Puzzle, item: Item) -> None:
    if not 0 <= item.category < len(puzzle.categories):
        raise ValueError(f"unknown category #{item.category}")
    if not 0 <= item.value < len(puzzle.categories[item.category][1]):
        raise ValueError(f"unknown value #{item.value} of category #{item.category}")


@dataclass(frozen=True)
class ClauseGroup:
    """Clauses ``first..last`` (1-based, inclusive) of an encoding came from one constraint."""

    label: str
    first: int
    last: int

    @property
    def count(self) -> int:
        """How many clauses the group holds."""
        return self.last - self.first + 1


@dataclass
class Encoding:
    """The CNF of a puzzle (variables named) and where each constraint's clauses are."""

    formula: Formula
    groups: list[ClauseGroup]


def exactly_one_clauses(puzzle: Puzzle, category: int) -> Iterator[list[int]]:
    """Exactly one value per house, and exactly one house per value, for one category.

    Per house: the pairs ``-v(h,i) -v(h,j)`` (i < j), then ``v(h,0) … v(h,N-1)``;
    then per value: the pairs ``-v(h1,i) -v(h2,i)`` (h1 < h2), then ``v(1,i) … v(N,i)``.
    """
    n = puzzle.houses
    var = puzzle.var
    for house in range(1, n + 1):
        row = [var(category, house, value) for value in range(n)]
        yield from _at_most_one(row)
        yield row
    for value in range(n):
        column = [var(category, house, value) for house in range(1, n + 1)]
        yield from _at_most_one(column)
        yield column


def _at_most_one(lits: list[int]) -> Iterator[list[int]]:
    for i, first in enumerate(lits):
        for second in lits[i + 1 :]:
            yield [-first, -second]


def same_house_clauses(puzzle: Puzzle, a: Item, b: Item) -> Iterator[list[int]]:
    """A and B share a house: for h1 < h2, ban ``A@h1 ∧ B@h2`` and ``B@h1 ∧ A@h2``."""
    n = puzzle.houses
    at = puzzle.at
    for h1 in range(1, n + 1):
        for h2 in range(h1 + 1, n + 1):
            yield [-at(a, h1), -at(b, h2)]
            yield [-at(b, h1), -at(a, h2)]


def next_to_clauses(puzzle: Puzzle, a: Item, b: Item) -> Iterator[list[int]]:
    """A and B are neighbours: per h1, ban pairs ≥ 2 houses apart, then ``A@h1 ∧ B@h1``."""
    n = puzzle.houses
    at = puzzle.at
    for h1 in range(1, n + 1):
        for h2 in range(h1 + 2, n + 1):
            yield [-at(a, h1), -at(b, h2)]
            yield [-at(b, h1), -at(a, h2)]
        yield [-at(a, h1), -at(b, h1)]


def left_of_clauses(puzzle: Puzzle, a: Item, b: Item) -> Iterator[list[int]]:
    """A is immediately left of B: ``¬A@N``, then for h1 < N ban ``A@h1 ∧ B@h2``, h2 ∉ {h1, h1+1}.

    (The seed also leaves ``A@h1 ∧ B@h1`` to the exactly-one constraints when A and B share
    a category; when they do not, that pair is banned here too, since h2 = h1 is not h1 + 1.)
    """
    n = puzzle.houses
    at = puzzle.at
    yield [-at(a, n)]
    for h1 in range(1, n):
        for h2 in range(1, n + 1):
            if h2 != h1 + 1 and (h2 != h1 or a.category != b.category):
                yield [-at(a, h1), -at(b, h2)]


def not_same_house_clauses(puzzle: Puzzle, a: Item, b: Item) -> Iterator[list[int]]:
    """A and B live apart: per house h, ban ``A@h ∧ B@h``.

    (Within one category the exactly-one constraints already say so; the clauses are
    emitted all the same, so every hint has the same clauses whatever its categories.)
    """
    at = puzzle.at
    for house in range(1, puzzle.houses + 1):
        yield [-at(a, house), -at(b, house)]


def somewhere_left_of_clauses(puzzle: Puzzle, a: Item, b: Item) -> Iterator[list[int]]:
    """A is left of B at any distance: per h1, ban ``A@h1 ∧ B@h2`` for every h2 ≤ h1."""
    at = puzzle.at
    for h1 in range(1, puzzle.houses + 1):
        for h2 in range(1, h1 + 1):
            yield [-at(a, h1), -at(b, h2)]


def fact_clauses(puzzle: Puzzle, house: int, a: Item) -> Iterator[list[int]]:
    """A is in house ``house``: the unit clause ``A@house``."""
    yield [puzzle.at(a, house)]


def not_fact_clauses(puzzle: Puzzle, house: int, a: Item) -> Iterator[list[int]]:
    """A is not in house ``house``: the unit clause ``¬A@house``."""
    yield [-puzzle.at(a, house)]


def hint_clauses(puzzle: Puzzle, hint: Hint) -> Iterator[list[int]]:
    """The clauses of one hint (dispatch on its kind)."""
    if hint.kind == "fact":
        assert hint.house is not None
        return fact_clauses(puzzle, hint.house, hint.a)
    if hint.kind == "not_fact":
        assert hint.house is not None
        return not_fact_clauses(puzzle, hint.house, hint.a)
    assert hint.b is not None
    if hint.kind == "same_house":
        return same_house_clauses(puzzle, hint.a, hint.b)
    if hint.kind == "next_to":
        return next_to_clauses(puzzle, hint.a, hint.b)
    if hint.kind == "left_of":
        return left_of_clauses(puzzle, hint.a, hint.b)
    if hint.kind == "not_same_house":
        return not_same_house_clauses(puzzle, hint.a, hint.b)
    if hint.kind == "somewhere_left_of":
        return somewhere_left_of_clauses(puzzle, hint.a, hint.b)
    raise ValueError(f"unknown hint kind {hint.kind!r}")


def hint_label(puzzle: Puzzle, hint: Hint) -> str:
    """A short description of a hint: ``same_house(Nationality:Brit, Color:Red)``."""
    if hint.kind in HOUSE_KINDS:
        return f"{hint.kind}({hint.house}, {puzzle.item_name(hint.a)})"
    assert hint.b is not None
    return f"{hint.kind}({puzzle.item_name(hint.a)}, {puzzle.item_name(hint.b)})"


def encode(puzzle: Puzzle, *, names: bool = True) -> Encoding:
    """The CNF of a puzzle: base constraints per category, then the hints in order.

    With ``names`` every variable gets its name (``Pet(4,Fish)``) in ``formula.names``,
    which DIMACS writers emit as ``c var N name`` comments.
    """
    clauses: list[list[int]] = []
    groups: list[ClauseGroup] = []

    def add(label: str, new: Iterator[list[int]]) -> None:
        first = len(clauses) + 1
        clauses.extend(new)
        groups.append(ClauseGroup(label, first, len(clauses)))

    for category, (name, _values) in enumerate(puzzle.categories):
        add(f"exactly_one({name})", exactly_one_clauses(puzzle, category))
    for hint in puzzle.hints:
        add(hint_label(puzzle, hint), hint_clauses(puzzle, hint))
    formula = Formula(nvars=puzzle.nvars, clauses=clauses)
    if names:
        formula.names = {var: puzzle.var_name(var) for var in range(1, puzzle.nvars + 1)}
    return Encoding(formula, groups)
