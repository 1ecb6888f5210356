"""Decoding models into house tables: the seed's expected answer, strictness, hint checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzles.decoder import DecodeError, decode, format_table, hint_holds
from puzzles.einstein import einstein_puzzle
from puzzles.zebra import Hint, Item, Puzzle

SEED_DATA = (
    Path(__file__).resolve().parents[1].parent / "shared" / "seeds-data" / "kompy99__SATSolver"
)

EXPECTED_TRUE = [4, 10, 11, 18, 22, 29, 33, 36, 45, 47, 55, 56, 63]
EXPECTED_TRUE += [67, 74, 77, 83, 86, 94, 100, 101, 107, 115, 119, 123]
EXPECTED_TABLE = {
    "Color": ["Yellow", "Blue", "Red", "Green", "White"],
    "Nationality": ["Norwegian", "Dane", "Brit", "German", "Swede"],
    "Beverage": ["Water", "Tea", "Milk", "Coffee", "Beer"],
    "Cigar": ["Dunhill", "Blends", "Pall Mall", "Prince", "Bluemasters"],
    "Pet": ["Cats", "Horse", "Birds", "Fish", "Dogs"],
}


def full_model(true: list[int], nvars: int = 125) -> list[int]:
    return [v if v in set(true) else -v for v in range(1, nvars + 1)]


def test_the_seed_model_decodes_to_the_seed_table() -> None:
    solution = decode(einstein_puzzle(), full_model(EXPECTED_TRUE))
    assert solution.table() == EXPECTED_TABLE
    assert solution.true_vars() == EXPECTED_TRUE
    assert solution.violated_hints() == []
    answer = solution.answer()
    assert answer is not None
    assert (answer.category, answer.value, answer.house, answer.where) == (
        "Nationality",
        "German",
        4,
        "Fish",
    )
    assert answer.sentence() == "Who owns the fish? German, in house 4."
    assert solution.blocking_clause() == [-v for v in EXPECTED_TRUE]


@pytest.mark.skipif(not SEED_DATA.is_dir(), reason=f"seed data not found at {SEED_DATA}")
def test_expected_json_agrees() -> None:
    expected = json.loads((SEED_DATA / "einstein_expected.json").read_text())
    assert expected["model_true_variables"] == EXPECTED_TRUE
    solution = decode(einstein_puzzle(), expected["model_true_variables"])  # positives only
    assert solution.table() == expected["solution_table_by_house"]
    puzzle = einstein_puzzle()
    for var, meaning in expected["variables"].items():
        category, house, value = puzzle.unvar(int(var))
        assert puzzle.categories[category][0] == meaning["category"]
        assert puzzle.categories[category][1][value] == meaning["value"]
        assert house == meaning["house"]


def test_format_table_aligns_columns() -> None:
    text = format_table(decode(einstein_puzzle(), EXPECTED_TRUE))
    assert text.splitlines() == [
        "             House 1    House 2  House 3    House 4  House 5",
        "Color        Yellow     Blue     Red        Green    White",
        "Nationality  Norwegian  Dane     Brit       German   Swede",
        "Beverage     Water      Tea      Milk       Coffee   Beer",
        "Cigar        Dunhill    Blends   Pall Mall  Prince   Bluemasters",
        "Pet          Cats       Horse    Birds      Fish     Dogs",
    ]


def test_a_house_with_two_values_is_rejected() -> None:
    with pytest.raises(DecodeError, match=r"house 1 2 values of Color \(Red, Yellow\)"):
        decode(einstein_puzzle(), [*EXPECTED_TRUE, 1])


def test_a_house_with_no_value_is_rejected() -> None:
    with pytest.raises(DecodeError, match=r"house 1 0 values of Color \(none\)"):
        decode(einstein_puzzle(), [v for v in EXPECTED_TRUE if v != 4])


def test_a_value_in_two_houses_is_rejected() -> None:
    model = [v for v in EXPECTED_TRUE if v != 10] + [9]  # house 2 yellow too
    with pytest.raises(DecodeError, match="Color Yellow in more than one house"):
        decode(einstein_puzzle(), model)


def test_hint_semantics_on_a_table() -> None:
    puzzle = Puzzle("p", [("A", ["x", "y", "z"]), ("B", ["p", "q", "r"])])
    # A: x y z in houses 1 2 3; B: r p q
    solution = decode(puzzle, [1, 5, 9, 10 + 2, 13 + 0, 16 + 1])
    x, y, z = Item(0, 0), Item(0, 1), Item(0, 2)
    p, q, r = Item(1, 0), Item(1, 1), Item(1, 2)
    assert hint_holds(solution, Hint("same_house", x, r))
    assert not hint_holds(solution, Hint("same_house", x, p))
    assert hint_holds(solution, Hint("next_to", z, p))
    assert hint_holds(solution, Hint("next_to", p, z))
    assert not hint_holds(solution, Hint("next_to", x, q))
    assert hint_holds(solution, Hint("left_of", x, y))
    assert not hint_holds(solution, Hint("left_of", y, x))
    assert not hint_holds(solution, Hint("left_of", x, z))
    assert hint_holds(solution, Hint("fact", q, house=3))
    assert not hint_holds(solution, Hint("fact", q, house=2))
    broken = Puzzle("p", puzzle.categories, [Hint("left_of", z, x), Hint("fact", x, house=1)])
    assert decode(broken, [1, 5, 9, 12, 13, 17]).violated_hints() == [broken.hints[0]]


def test_no_question_no_answer() -> None:
    puzzle = Puzzle("p", [("A", ["x"])])
    assert decode(puzzle, [1]).answer() is None
