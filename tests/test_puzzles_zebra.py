"""The zebra model and encoder: the seed's Einstein CNF clause for clause; hint semantics."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Minisat22

from puzzles.decoder import decode, hint_holds
from puzzles.einstein import einstein_puzzle
from puzzles.solve import solve_puzzle
from puzzles.zebra import (
    HINT_KINDS,
    HOUSE_KINDS,
    Hint,
    Item,
    Puzzle,
    Question,
    encode,
    hint_label,
)

SEED_DATA = (
    Path(__file__).resolve().parents[1].parent / "shared" / "seeds-data" / "kompy99__SATSolver"
)
needs_seed = pytest.mark.skipif(
    not SEED_DATA.is_dir(),
    reason=f"seed data not found at {SEED_DATA} (../shared beside the checkout)",
)


def seed_clauses() -> tuple[str, list[list[int]]]:
    text = (SEED_DATA / "EinsteinDimacs.txt").read_text()
    header, *lines = text.split("\n")
    return header, [[int(tok) for tok in line.split()[:-1]] for line in lines if line.strip()]


@needs_seed
def test_einstein_encoding_is_the_seed_file_clause_for_clause() -> None:
    header, expected = seed_clauses()
    formula = encode(einstein_puzzle(), names=False).formula
    assert header == "p cnf 125 793"
    assert (formula.nvars, len(formula.clauses)) == (125, 793)
    for index, (ours, theirs) in enumerate(zip(formula.clauses, expected, strict=True), start=1):
        assert ours == theirs, f"clause {index}"


def test_einstein_clause_sizes_units_and_numbering() -> None:
    puzzle = einstein_puzzle()
    clauses = encode(puzzle).formula.clauses
    assert Counter(len(c) for c in clauses) == {2: 740, 5: 50, 1: 3}
    assert [c[0] for c in clauses if len(c) == 1] == [63, 29, -23]
    # 25·category + 5·(house−1) + value + 1
    for category, house, value in itertools.product(range(5), range(1, 6), range(5)):
        var = puzzle.var(category, house, value)
        assert var == 25 * category + 5 * (house - 1) + value + 1
        assert puzzle.unvar(var) == (category, house, value)
    assert puzzle.var_name(119) == "Pet(4,Fish)"
    assert puzzle.var_name(45) == "Nationality(4,German)"
    assert puzzle.var_name(63) == "Beverage(3,Milk)"


@needs_seed
def test_einstein_clause_groups_match_the_seed_map() -> None:
    expected = json.loads((SEED_DATA / "einstein_expected.json").read_text())
    groups = encode(einstein_puzzle()).groups
    assert [(g.first, g.last, g.count) for g in groups] == [
        (g["first"], g["last"], g["count"]) for g in expected["clause_groups"]
    ]
    assert groups[-1].label == "left_of(Color:Green, Color:White)"
    assert groups[0].label == "exactly_one(Color)"


def test_names_cover_every_variable() -> None:
    formula = encode(einstein_puzzle()).formula
    assert sorted(formula.names) == list(range(1, 126))
    assert formula.names[1] == "Color(1,Red)"
    assert formula.names[79] == "Cigar(1,Prince)"
    assert encode(einstein_puzzle(), names=False).formula.names == {}


def test_docstring_example_two_houses() -> None:
    puzzle = Puzzle("tiny", [("Color", ["Red", "Blue"])], [Hint("fact", Item(0, 0), house=2)])
    clauses = encode(puzzle).formula.clauses
    assert clauses == [[-1, -2], [1, 2], [-3, -4], [3, 4], [-1, -3], [1, 3], [-2, -4], [2, 4], [3]]


def test_left_of_across_categories_bans_the_same_house() -> None:
    # The seed only ever uses left_of inside one category, where exactly-one already keeps A
    # and B apart; across categories the same-house pair must be banned explicitly.
    puzzle = Puzzle(
        "two",
        [("Owner", ["Ann", "Bob"]), ("Pet", ["Cat", "Dog"])],
        [Hint("left_of", Item(0, 0), Item(1, 0))],
    )
    tables = all_models(puzzle)
    assert tables == {((0, 1), (1, 0))}


@pytest.mark.parametrize(
    ("categories", "hints", "message"),
    [
        ([], [], "at least one category"),
        ([("A", [])], [], "at least one house"),
        ([("A", ["x", "y"]), ("A", ["p", "q"])], [], "listed twice"),
        ([("A", ["x", "y"]), ("B", ["p"])], [], "has 1 value, but there are 2 houses"),
        ([("A", ["x"]), ("B", ["p", "q"])], [], "has 2 values, but there is 1 house"),
        ([("A", ["x", "x"])], [], "lists a value twice"),
        ([("A", ["x", "y"])], [Hint("next_to", Item(0, 0), Item(0, 0))], "two different values"),
        ([("A", ["x", "y"])], [Hint("fact", Item(0, 0), house=3)], "not between 1 and 2"),
        ([("A", ["x", "y"])], [Hint("fact", Item(0, 5), house=1)], "unknown value"),
        ([("A", ["x", "y"])], [Hint("beside", Item(0, 0), Item(0, 1))], "unknown hint kind"),
        ([("A", ["x", "y"])], [Hint("same_house", Item(0, 0))], "needs two values"),
        ([("A", ["x", "y"])], [Hint("same_house", Item(0, 0), Item(3, 0))], "unknown category"),
    ],
)
def test_malformed_puzzles_are_rejected(categories, hints, message) -> None:
    with pytest.raises(ValueError, match=message):
        Puzzle("bad", categories, hints)


# --- semantics: the CNF's models are exactly the tables that satisfy every hint -------------


def all_models(puzzle: Puzzle) -> set[tuple[tuple[int, ...], ...]]:
    """Every model of the encoding, decoded to its grid (PySAT enumerates)."""
    found = set()
    with Minisat22(bootstrap_with=encode(puzzle, names=False).formula.clauses) as solver:
        for model in solver.enum_models():
            found.add(decode(puzzle, model).grid)
    return found


def brute_force(puzzle: Puzzle) -> set[tuple[tuple[int, ...], ...]]:
    """Every table that satisfies every hint, by trying all of them (no SAT involved)."""
    n = puzzle.houses
    perms = list(itertools.permutations(range(n)))
    found = set()
    for grid in itertools.product(perms, repeat=len(puzzle.categories)):
        model = [puzzle.var(c, h + 1, v) for c, row in enumerate(grid) for h, v in enumerate(row)]
        solution = decode(puzzle, model)
        if all(hint_holds(solution, hint) for hint in puzzle.hints):
            found.add(grid)
    return found


RELATIONS = [kind for kind in HINT_KINDS if kind not in HOUSE_KINDS]
NEW_KINDS = ["not_same_house", "somewhere_left_of"]


@st.composite
def small_puzzles(draw: st.DrawFn, must_use: list[str] | None = None) -> Puzzle:
    """A random puzzle of up to 4 houses; with ``must_use``, one of its hints is of one of
    those kinds (placed at a random position among the others)."""
    n = draw(st.integers(1, 4))
    ncat = draw(st.integers(1, 2 if n == 4 else 3))
    categories = [(f"C{c}", [f"v{c}{v}" for v in range(n)]) for c in range(ncat)]
    item = st.builds(Item, st.integers(0, ncat - 1), st.integers(0, n - 1))

    def relations(kinds: list[str]) -> st.SearchStrategy[Hint]:
        return (
            st.tuples(st.sampled_from(kinds), item, item)
            .filter(lambda t: t[1] != t[2])
            .map(lambda t: Hint(t[0], t[1], t[2]))
        )

    fact = st.builds(
        lambda k, a, h: Hint(k, a, house=h), st.sampled_from(HOUSE_KINDS), item, st.integers(1, n)
    )
    hints = draw(st.lists(st.one_of(relations(RELATIONS), fact), max_size=4))
    if must_use and n > 1:
        hints.insert(draw(st.integers(0, len(hints))), draw(relations(must_use)))
    question = None
    if draw(st.booleans()):
        question = Question("", draw(st.integers(0, ncat - 1)), draw(item))
    return Puzzle("random", categories, hints, question)


@settings(max_examples=80, deadline=None)
@given(small_puzzles())
def test_models_are_exactly_the_tables_that_satisfy_the_hints(puzzle: Puzzle) -> None:
    assert all_models(puzzle) == brute_force(puzzle), [hint_label(puzzle, h) for h in puzzle.hints]


@settings(max_examples=120, deadline=None)
@given(small_puzzles(must_use=NEW_KINDS))
def test_new_hint_kinds_answer_as_brute_force_does(puzzle: Puzzle) -> None:
    # audit 19-G #2: "X does not live with Y" and "X lives somewhere left of Y" could not be
    # written; their clauses must have exactly the tables that brute force finds as models,
    # and the solver's verdict (table, uniqueness, answer) must agree with brute force
    labels = [hint_label(puzzle, h) for h in puzzle.hints]
    tables = brute_force(puzzle)
    assert all_models(puzzle) == tables, labels
    result = solve_puzzle(puzzle, lambda clauses: Minisat22(bootstrap_with=clauses))
    if not tables:
        assert result.solution is None, labels
        return
    assert result.solution is not None and result.solution.grid in tables, labels
    assert result.unique is (len(tables) == 1), labels
    if puzzle.question is not None:
        answer = result.solution.answer()
        assert answer is not None
        grid = result.solution.grid
        question = puzzle.question
        house = grid[question.where.category].index(question.where.value) + 1
        assert answer.house == house
        assert answer.value == puzzle.categories[question.find][1][grid[question.find][house - 1]]


@settings(max_examples=80, deadline=None)
@given(small_puzzles().filter(lambda puzzle: puzzle.question is not None))
def test_the_answer_is_determined_exactly_when_brute_force_says_so(puzzle: Puzzle) -> None:
    # audit 19-G #3: a second solution that answers otherwise must be shown as such; the
    # answer is the value (the same value in another house is the same answer: review 19b)
    question = puzzle.question
    assert question is not None
    answers = set()
    for grid in brute_force(puzzle):
        house = grid[question.where.category].index(question.where.value) + 1
        answers.add(grid[question.find][house - 1])
    result = solve_puzzle(puzzle, lambda clauses: Minisat22(bootstrap_with=clauses))
    if not answers:
        assert result.answer_determined is None
        return
    assert result.answer_determined is (len(answers) == 1)
    if result.answer_determined is False:
        assert result.solution is not None and result.other is not None
        first, other = result.solution.answer(), result.other.answer()
        assert first is not None and other is not None
        assert first.value != other.value
        assert result.other.violated_hints() == []


def test_new_hint_kinds_mean_what_they_say() -> None:
    owners = ("Owner", ["Ann", "Bob", "Cy"])
    pets = ("Pet", ["Cat", "Dog", "Emu"])
    ann, cy, emu = Item(0, 0), Item(0, 2), Item(1, 2)
    apart = Puzzle("apart", [owners, pets], [Hint("not_same_house", ann, emu)])
    tables = all_models(apart)
    assert all(grid[0].index(0) != grid[1].index(2) for grid in tables)  # Ann has no emu
    assert len(tables) == 24  # of the 36 tables, 12 give Ann the emu
    left = Puzzle("left", [owners], [Hint("somewhere_left_of", cy, ann)])
    assert all_models(left) == {((1, 2, 0),), ((2, 0, 1),), ((2, 1, 0),)}
    # somewhere_left_of is strict: two values of one category can never share a house anyway,
    # across categories the same house is banned
    strict = Puzzle("strict", [owners, pets], [Hint("somewhere_left_of", ann, emu)])
    assert all(grid[0].index(0) < grid[1].index(2) for grid in all_models(strict))
    groups = encode(strict).groups
    assert (groups[-1].label, groups[-1].count) == ("somewhere_left_of(Owner:Ann, Pet:Emu)", 6)
    assert encode(apart).groups[-1].count == 3


def test_not_fact_means_not_in_that_house() -> None:
    # "the Norwegian does not live in house 3" could not be written (audit 19-G #2, left at
    # first): not_fact bans one house with one unit clause
    owners = ("Owner", ["Ann", "Bob", "Cy"])
    ann = Item(0, 0)
    puzzle = Puzzle("not", [owners], [Hint("not_fact", ann, house=2)])
    tables = all_models(puzzle)
    assert len(tables) == 4 and all(grid[0].index(0) != 1 for grid in tables)
    assert encode(puzzle).groups[-1].count == 1
    assert hint_label(puzzle, puzzle.hints[0]) == "not_fact(2, Owner:Ann)"
