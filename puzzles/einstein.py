"""Einstein's "who owns the fish?" puzzle, stated exactly as seed 003 encodes it.

Category and value order fix the seed's numbering (Color 1–25, Nationality
26–50, Beverage 51–75, Cigar 76–100, Pet 101–125) and the hint order fixes its
clause order, so ``encode(einstein_puzzle())`` is ``EinsteinDimacs.txt`` clause
for clause: 125 variables, 793 clauses. Two of the seed's choices are kept on
purpose: "the green house is on the left of the white house" is encoded as
*immediately* left, and the hints appear in the seed file's order, not the
story's. ``data/puzzles/einstein.toml`` states the same puzzle as data.
"""

from __future__ import annotations

from puzzles.zebra import Hint, Item, Puzzle, Question

CATEGORIES: list[tuple[str, list[str]]] = [
    ("Color", ["Red", "White", "Green", "Yellow", "Blue"]),
    ("Nationality", ["Brit", "Swede", "Dane", "Norwegian", "German"]),
    ("Beverage", ["Tea", "Coffee", "Milk", "Beer", "Water"]),
    ("Cigar", ["Pall Mall", "Dunhill", "Blends", "Prince", "Bluemasters"]),
    ("Pet", ["Cats", "Horse", "Dogs", "Fish", "Birds"]),
]

# (kind, first value, second value or house, the clue as the seed states it), in file order.
_HINTS: list[tuple[str, str | int, str, str]] = [
    ("same_house", "Brit", "Red", "The Brit lives in the red house."),
    ("same_house", "Swede", "Dogs", "The Swede keeps dogs as pets."),
    ("same_house", "Dane", "Tea", "The Dane drinks tea."),
    ("same_house", "Green", "Coffee", "The green house's owner drinks coffee."),
    ("same_house", "Pall Mall", "Birds", "The person who smokes Pall Mall rears birds."),
    ("same_house", "Yellow", "Dunhill", "The owner of the yellow house smokes Dunhill."),
    (
        "next_to",
        "Blends",
        "Cats",
        "The man who smokes Blends lives next to the one who keeps cats.",
    ),
    (
        "next_to",
        "Horse",
        "Dunhill",
        "The man who keeps the horse lives next to the man who smokes Dunhill.",
    ),
    ("same_house", "Bluemasters", "Beer", "The owner who smokes Bluemasters drinks beer."),
    ("same_house", "German", "Prince", "The German smokes Prince."),
    ("next_to", "Norwegian", "Blue", "The Norwegian lives next to the blue house."),
    ("next_to", "Blends", "Water", "The man who smokes Blends has a neighbor who drinks water."),
    ("fact", 3, "Milk", "The man living in the center house drinks milk."),
    ("fact", 1, "Norwegian", "The Norwegian lives in the first house."),
    ("left_of", "Green", "White", "The green house is on the left of the white house."),
]


def _item(name: str) -> Item:
    for category, (_cat_name, values) in enumerate(CATEGORIES):
        if name in values:
            return Item(category, values.index(name))
    raise KeyError(name)


def einstein_puzzle() -> Puzzle:
    """The Einstein puzzle with the seed's numbering and clause order."""
    hints = []
    for kind, first, second, text in _HINTS:
        if kind == "fact":
            assert isinstance(first, int)
            hints.append(Hint("fact", _item(second), house=first, text=text))
        else:
            assert isinstance(first, str)
            hints.append(Hint(kind, _item(first), _item(second), text=text))
    return Puzzle(
        title="Einstein's puzzle",
        description=(
            "There are five houses in five different colors. In each house lives a man with"
            " a different nationality. The five owners drink a certain type of beverage, smoke"
            " a certain brand of cigar, and keep a certain pet. No owners have the same pet,"
            " smoke the same brand of cigar or drink the same beverage."
        ),
        categories=[(name, list(values)) for name, values in CATEGORIES],
        hints=hints,
        question=Question("Who owns the fish?", find=1, where=_item("Fish")),
    )
