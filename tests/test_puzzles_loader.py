"""Puzzle data files: the shipped puzzles load, and every mistake names its file and line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzles.loader as loader
from formats.errors import FormatError
from puzzles.einstein import einstein_puzzle
from puzzles.loader import load_puzzle, parse_puzzle
from puzzles.zebra import HINT_KINDS, HOUSE_KINDS, Hint, Item, Puzzle, Question, encode

DATA = Path(__file__).resolve().parents[1] / "data" / "puzzles"
EINSTEIN_TOML = (DATA / "einstein.toml").read_text()
HARBOUR_JSON = (DATA / "harbour-lane.json").read_text()


def as_json(puzzle_toml: str) -> str:
    """The same document as JSON (tomllib, or tomli on Python 3.10, reads it; json writes it)."""
    if loader.tomllib is None:
        pytest.skip("reading TOML needs Python 3.11+ or the tomli package")
    return json.dumps(loader.tomllib.loads(puzzle_toml), indent=2)


def test_einstein_toml_is_the_einstein_puzzle() -> None:
    assert load_puzzle(DATA / "einstein.toml") == einstein_puzzle()


def test_the_same_puzzle_as_json_loads_the_same() -> None:
    assert parse_puzzle(as_json(EINSTEIN_TOML), "e.json") == einstein_puzzle()


def test_harbour_lane_is_a_different_4_house_puzzle() -> None:
    puzzle = load_puzzle(DATA / "harbour-lane.json")
    assert puzzle.title == "Harbour Lane"
    assert puzzle.houses == 4
    assert [name for name, _ in puzzle.categories] == ["Owner", "Color", "Boat", "Drink"]
    assert {hint.kind for hint in puzzle.hints} == {"fact", "same_house", "next_to", "left_of"}
    assert len(encode(puzzle).formula.clauses) == 309
    assert puzzle.hints[4] == Hint(
        "left_of", Item(0, 1), Item(2, 1), text="Ben lives immediately left of the kayak's owner."
    )


def test_kind_is_taken_from_the_extension_or_sniffed(tmp_path: Path) -> None:
    no_ext = tmp_path / "puzzle"
    no_ext.write_text(HARBOUR_JSON)
    assert load_puzzle(no_ext).houses == 4
    no_ext.write_text(EINSTEIN_TOML)
    assert load_puzzle(no_ext).houses == 5
    wrong = tmp_path / "p.json"
    wrong.write_text(EINSTEIN_TOML)
    with pytest.raises(FormatError, match="invalid JSON"):
        load_puzzle(wrong)


def test_default_title_is_the_file_name(tmp_path: Path) -> None:
    path = tmp_path / "two-pets.toml"
    path.write_text('[categories]\nPet = ["Cat", "Dog"]\n')
    puzzle = load_puzzle(path)
    assert puzzle.title == "two-pets"
    assert puzzle.hints == []
    assert puzzle.question is None


def test_qualified_names_and_ambiguity() -> None:
    text = """
[categories]
Color = ["Red", "Blue"]
Shirt = ["Red", "Green"]
[[hints]]
next_to = ["Color:Red", "Shirt:Red"]
"""
    puzzle = parse_puzzle(text, "q.toml")
    assert puzzle.hints[0].a == Item(0, 0)
    assert puzzle.hints[0].b == Item(1, 0)
    with pytest.raises(FormatError) as info:
        parse_puzzle(text.replace('"Shirt:Red"]', '"Red"]'), "q.toml")
    assert str(info.value) == (
        "q.toml:6: 'Red' names values of several categories; write 'Color:Red' or 'Shirt:Red'"
    )


def test_value_with_a_colon_in_its_name() -> None:
    text = '[categories]\nTime = ["9:00", "10:00"]\n[[hints]]\nfact = [1, "10:00"]\n'
    assert parse_puzzle(text, "t.toml").hints[0].a == Item(0, 1)


THREE_FRIENDS = """title = "Three friends"
[categories]
Name = ["Ann", "Bob", "Cy"]
Pet = ["Cat", "Dog", "Emu"]
[question]
text = "Who owns the emu?"
find = "Name"
where = "Emu"
[[hints]]
text = "Cy lives in the middle house."
fact = [2, "Cy"]
[[hints]]
text = "The emu's owner lives somewhere to the right of Bob."
somewhere_left_of = ["Bob", "Emu"]
[[hints]]
text = "Cy does not own the emu."
not_same_house = ["Cy", "Emu"]
[[hints]]
text = "Bob owns the cat."
same_house = ["Bob", "Cat"]
"""


def test_negative_and_somewhere_hints_load_from_toml_and_json() -> None:
    # audit 19-G #2: these clues could not be written at all
    expected = [
        Hint("fact", Item(0, 2), house=2, text="Cy lives in the middle house."),
        Hint(
            "somewhere_left_of",
            Item(0, 1),
            Item(1, 2),
            text="The emu's owner lives somewhere to the right of Bob.",
        ),
        Hint("not_same_house", Item(0, 2), Item(1, 2), text="Cy does not own the emu."),
        Hint("same_house", Item(0, 1), Item(1, 0), text="Bob owns the cat."),
    ]
    assert parse_puzzle(THREE_FRIENDS, "f.toml").hints == expected
    assert parse_puzzle(as_json(THREE_FRIENDS), "f.json").hints == expected


@pytest.mark.parametrize(
    ("old", "new", "message", "where"),
    [
        (
            'somewhere_left_of = ["Bob", "Emu"]',
            'somewhere_left_of = ["Bob", "Emo"]',
            "unknown value 'Emo' (did you mean 'Emu'?)",
            "Emo",
        ),
        (
            'not_same_house = ["Cy", "Emu"]',
            'not_same_house = ["Cy", "Cy"]',
            "hint 3: not_same_house needs two different values",
            "not_same_house",
        ),
        (
            'somewhere_left_of = ["Bob", "Emu"]',
            'somewhere_left_of = ["Bob"]',
            "hint 2: somewhere_left_of takes a pair [value, value]",
            "somewhere_left_of",
        ),
        (
            'not_same_house = ["Cy", "Emu"]',
            'not_same_hose = ["Cy", "Emu"]',
            "hint 3: unknown key 'not_same_hose' (did you mean 'not_same_house'?)",
            "not_same_hose",
        ),
        (
            'not_same_house = ["Cy", "Emu"]',
            'not_same_house = ["Cy", "Emu"]\nsame_house = ["Cy", "Dog"]',
            "hint 3 needs exactly one of",
            "[[hints]]",
        ),
    ],
)
def test_new_hint_kinds_errors_name_the_line(old: str, new: str, message: str, where: str) -> None:
    toml = edit(THREE_FRIENDS, old, new)
    for text, name in ((toml, "f.toml"), (as_json(toml), "f.json")):
        with pytest.raises(FormatError) as info:
            parse_puzzle(text, name)
        assert message in info.value.message
        assert info.value.line is not None, str(info.value)
        line = text.split("\n")[info.value.line - 1]
        if name == "f.json" and where == "[[hints]]":
            where = "{"  # the hint's object
        assert where in line, (name, str(info.value))


@pytest.mark.parametrize(
    ("categories", "expected"),
    [
        (  # "Pet:Dog" named Pet's "Dog" and "Pet:Dog" alike, and "Pet:Pet:Dog" was suggested
            'Pet = ["Dog", "Pet:Dog", "Cat"]\nToy = ["Dog", "Ball", "Kite"]',
            "c.toml:3: category 'Pet': value 'Pet:Dog' is also how Pet's 'Dog' is named;"
            " rename the value",
        ),
        (
            'Pet = ["Dog", "Emu", "Cat"]\nToy = ["Pet:Dog", "Ball", "Kite"]',
            "c.toml:4: category 'Toy': value 'Pet:Dog' is also how Pet's 'Dog' is named;"
            " rename the value",
        ),
        (
            '"A:B" = ["x", "y", "z"]\nA = ["w", "B:x", "v"]',
            "c.toml:4: 'A:B:x' would name both A:B's 'x' and A's 'B:x'; rename one of them",
        ),
    ],
)
def test_a_value_that_looks_qualified_is_refused(categories: str, expected: str) -> None:
    # audit 19-G #6: the ambiguity message suggested the very spelling it refused
    text = f'title = "colon"\n[categories]\n{categories}\n'
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "c.toml")
    assert str(info.value) == expected
    with pytest.raises(FormatError) as info:
        parse_puzzle(as_json(text), "c.json")
    assert info.value.message == expected.split(": ", 1)[1]


def test_every_value_can_be_named_when_the_file_loads() -> None:
    # the suggestions of an ambiguity message resolve: both "Dog"s, and a colon elsewhere
    text = (
        '[categories]\nPet = ["Dog", "Cat:s", "Emu"]\nToy = ["Dog", "Ball", "Kite"]\n'
        '[[hints]]\nnext_to = ["Pet:Dog", "Toy:Dog"]\n[[hints]]\nfact = [1, "Cat:s"]\n'
    )
    puzzle = parse_puzzle(text, "c.toml")
    assert [(h.a, h.b) for h in puzzle.hints] == [(Item(0, 0), Item(1, 0)), (Item(0, 1), None)]
    with pytest.raises(FormatError, match=r"write 'Pet:Dog' or 'Toy:Dog'$"):
        parse_puzzle(text.replace('"Pet:Dog"', '"Dog"'), "c.toml")


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


TOML_ERRORS = [
    # (old, new, message part, text the reported line must contain)
    ('["Dane", "Tea"]', '["Dane", "Tee"]', "unknown value 'Tee' (did you mean 'Tea'?)", '"Tee"'),
    ('find = "Nationality"', 'find = "Nation"', "unknown category 'Nation'", "find"),
    ('where = "Fish"', 'where = "Fsh"', "unknown value 'Fsh'", "where"),
    ('where = "Fish"', 'were = "Fish"', "question: unknown key 'were'", "were"),
    ('where = "Fish"', "", "question needs 'where'", "[question]"),
    ('["Green", "White"]', '["Colour:Green", "White"]', "unknown category 'Colour'", "Colour"),
    ('["Green", "White"]', '["Color:Grene", "White"]', "Color has no value 'Grene'", "Grene"),
    ("fact = [3,", "fact = [7,", "hint 13: house 7 is not between 1 and 5", "fact = [7"),
    ("fact = [3,", 'fact = ["3",', "hint 13: fact's house must be a number", 'fact = ["3"'),
    (
        'fact = [3, "Milk"]',
        'fact = [3, "Milk"]\nnext_to = ["Tea", "Milk"]',
        "found fact and next_to",
        "[[hints]]",
    ),
    ('fact = [3, "Milk"]', "", "hint 13 needs exactly one of", "[[hints]]"),
    (
        'fact = [3, "Milk"]',
        'fakt = [3, "Milk"]',
        "unknown key 'fakt' (did you mean 'fact'?)",
        "fakt",
    ),
    (
        '["Dane", "Tea"]',
        '["Tea", "Tea"]',
        "hint 3: same_house needs two different values",
        '["Tea", "Tea"]',
    ),
    ('["Dane", "Tea"]', '["Dane", "Tea", "Milk"]', "same_house takes a pair", '"Milk"]'),
    ('["Dane", "Tea"]', '"Dane"', "same_house takes a pair", '"Dane"'),
    ('["Dane", "Tea"]', '["Dane", 4]', "expected a value name, got 4", "4]"),
    (
        '"Beer", "Water"]',
        '"Beer"]',
        "category 'Beverage' has 4 values but 'Color' has 5",
        "Beverage",
    ),
    ('"Beer", "Water"]', '"Beer", "Beer"]', "category 'Beverage' lists 'Beer' twice", "Beverage"),
    ('"Beer", "Water"]', '"Beer", ""]', "values must be names", "Beverage"),
    (  # a line break in a name would end its `c var` line early in the --cnf export
        '"Beer", "Water"]',
        '"Beer", "Water\\n-49 0\\nc"]',
        "value 'Water\\n-49 0\\nc' holds a line break",
        "Beverage",
    ),
    (
        'Pet = ["Cats"',
        '"Pe\\rt" = ["Cats"',
        "category 'Pe\\rt' holds a line break",
        "Pe",
    ),
    (  # ESC reached the terminal and the `c var` lines raw (audit 22-A #6)
        '"Beer", "Water"]',
        '"Beer", "Wa\\u001bter"]',
        "value 'Wa\\x1bter' holds a control character (U+001B); a name is text",
        "Beverage",
    ),
    (
        'Pet = ["Cats"',
        '"P\\u0000et" = ["Cats"',
        "category 'P\\x00et' holds a control character (U+0000); a name is text",
        "P",
    ),
    (
        'Pet = ["Cats", "Horse", "Dogs", "Fish", "Birds"]',
        'Pet = "Cats"',
        "category 'Pet' must list",
        "Pet",
    ),
    ("houses = 5", "houses = 6", "houses = 6, but each category lists 5 values", "houses"),
    ("houses = 5", "houses = 0", "houses must be a positive whole number", "houses"),
    ("houses = 5", "hoses = 5", "unknown key 'hoses' (did you mean 'houses'?)", "hoses"),
    ('title = "Einstein\'s puzzle"', "title = 5", "title must be a string", "title"),
    ("houses = 5", "houses = = 5", "invalid TOML: Invalid value (column 10)", "houses = ="),
    ('text = "The Dane drinks tea."', 'text = "The Dane drinks tea.', "invalid TOML", "Dane"),
    ('text = "The Dane drinks tea."', "text = 3", "text must be a string", "text = 3"),
]


@pytest.mark.parametrize(("old", "new", "message", "where"), TOML_ERRORS)
def test_toml_errors_name_the_line(old: str, new: str, message: str, where: str) -> None:
    text = edit(EINSTEIN_TOML, old, new)
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "e.toml")
    error = info.value
    assert error.file == "e.toml"
    assert message in error.message
    assert error.line is not None, str(error)
    assert where in text.split("\n")[error.line - 1], str(error)


JSON_ERRORS = [
    ('["Cleo", "Tea"]', '["Cleo", "Tee"]', "unknown value 'Tee'", '"Tee"'),
    ('"find": "Owner"', '"find": "Ownr"', "unknown category 'Ownr'", "Ownr"),
    ('"fact": [3,', '"fact": [0,', "hint 1: house 0 is not between 1 and 4", '"fact": [0'),
    ('"fact": [3,', '"fact": [true,', "fact's house must be a number", "true"),
    ('"fact": [3, "Cleo"]', '"fakt": [3, "Cleo"]', "unknown key 'fakt'", "fakt"),
    ('"Lemonade", "Tea"]', '"Lemonade"]', "category 'Drink' has 3 values", "Drink"),
    ('"houses": 4', '"houses": 5', "houses = 5, but each category lists 4 values", "houses"),
    # keys not written as json.dumps writes them were placed on the object's first line
    ('"houses": 4,', '"houses": 4,\n  "notés": "x",', "unknown key 'notés'", "notés"),
    ('"houses": 4,', '"houses": 4,\n  "h\\u006fuses": 4,', "duplicate key 'houses'", "u006f"),
    ('"title": "Harbour Lane"', '"title": 5', "title must be a string", "title"),
    ('"houses": 4,', '"houses": 4', "invalid JSON: Expecting ',' delimiter", "categories"),
    # (Python 3.13 says "Illegal trailing comma before end of array" here)
    ('"Dev"]', '"Dev",]', "invalid JSON: ", "Dev"),
    (
        '{"text": "Cleo drinks tea.", "same_house": ["Cleo", "Tea"]}',
        '"Cleo drinks tea"',
        "hint 3 must be a table",
        "Cleo drinks tea",
    ),
    (
        '"Drink": ["Cocoa", "Juice", "Lemonade", "Tea"]',
        '"Drink": ["Cocoa", "Juice", "Lemonade", "Red"]',
        "'Red' names values of several categories; write 'Color:Red' or 'Drink:Red'",
        '"next_to": ["Red"',
    ),
]


@pytest.mark.parametrize(("old", "new", "message", "where"), JSON_ERRORS)
def test_json_errors_name_the_line(old: str, new: str, message: str, where: str) -> None:
    text = edit(HARBOUR_JSON, old, new)
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "h.json")
    error = info.value
    assert message in error.message
    assert error.line is not None, str(error)
    assert where in text.split("\n")[error.line - 1], str(error)


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("", "toml", "e.txt: no [categories] table (each category lists its values)"),
        (
            '{"categories": {"A": ["x"]},\n "hints": 7}',
            "json",
            "e.txt:2: hints must be a list of hint tables",
        ),
        ("[1, 2]", "json", "e.txt:1: a puzzle file must hold a table/object at the top"),
        (
            '{"categories": {\n "A": ["x"],\n "A": ["y"]}}',
            "json",
            "e.txt:3: invalid JSON: duplicate key 'A' (column 2)",
        ),
        (
            '[categories]\nA = ["x"]\nA = ["y"]\n',
            "toml",
            "e.txt:3: invalid TOML: Cannot overwrite a value",  # tomli's column varies
        ),
        ("{}", "json", "e.txt: no [categories] table (each category lists its values)"),
        (
            '{"categories": {}}',
            "json",
            "e.txt:1: categories must map each category name to its values",
        ),
        (
            '{"categories": []}',
            "json",
            "e.txt:1: categories must map each category name to its values",
        ),
        (
            '{"categories": {"A": ["x"]}, "question": 3}',
            "json",
            "e.txt:1: question must be a table with text, find and where",
        ),
        (
            '{"categories": {"A": ["x"]}, "hints": [{"fact": [1, "x"], "text": "t"}], "x": 1}',
            "json",
            "e.txt:1: unknown key 'x'",
        ),
        (
            "[categories]\nA = ['x']\n[question]\nwhere = 'x'\n",
            "toml",
            "e.txt:3: question needs 'find'",
        ),
        ('[categories]\n" " = ["x"]\n', "toml", "e.txt:2: a category name must not be empty"),
        (
            '[categories]\nA = ["x", "y"]\n[[hints]]\nleft_of = ["x", "y"]\n'
            "[[hints]]\nfact = [1]\n",
            "toml",
            "e.txt:6: hint 2: fact takes a pair [house, value]",
        ),
    ],
)
def test_whole_file_errors(text: str, kind: str, expected: str) -> None:
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "e.txt", kind=kind)
    message = str(info.value)
    if "invalid TOML" in expected:  # the parser's wording ends with its own column count
        assert message.startswith(expected)
    else:
        assert message == expected


def test_inline_toml_tables_are_located() -> None:
    text = """title = "inline"
categories = { Owner = ["Ann", "Bob"], Pet = [
   "Cat",
   "Dog",
] }
question = { text = "Who has the cat?", find = "Owner", where = "Cat" }
hints = [
  { same_house = ["Ann", "Dog"] },  # a comment with a { brace
  { text = "x { y", next_to = ["Bob",
     "Dog"] },
]
"""
    puzzle = parse_puzzle(text, "i.toml")
    assert [hint.kind for hint in puzzle.hints] == ["same_house", "next_to"]
    with pytest.raises(FormatError, match=r"^i\.toml:10: unknown value 'Dgo'"):
        parse_puzzle(text.replace('     "Dog"] }', '     "Dgo"] }'), "i.toml")
    with pytest.raises(FormatError, match=r"^i\.toml:8: hint 1: unknown key 'sme_house'"):
        parse_puzzle(text.replace("{ same_house", "{ sme_house"), "i.toml")
    with pytest.raises(FormatError, match=r"^i\.toml:6: unknown value 'Cot'"):
        parse_puzzle(text.replace('where = "Cat"', 'where = "Cot"'), "i.toml")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # the duplicate's own line, not the first "Dog"'s
            'title = "multi-line"\n[categories]\nColor = [\n  "Red",\n  "Blue",\n  "Green",\n]\n'
            'Pet = [\n  "Dog",\n  "Cat",\n  "Dog",\n]\n',
            "e.toml:11: category 'Pet' lists 'Dog' twice",
        ),
        (
            '[categories]\nPet = [\n  "Dog", "Cat",\n  "Emu", "Cat",\n]\n',
            "e.toml:4: category 'Pet' lists 'Cat' twice",
        ),
        (  # dotted keys had no line at all
            'title = "dotted"\ncategories.Color = ["Red", "Blue"]\n'
            'categories.Pet = ["Dog", "Dog"]\n',
            "e.toml:3: category 'Pet' lists 'Dog' twice",
        ),
        (
            'title="x"\nhint.same_house = ["a","b"]\n[categories]\nColor=["a","b"]\n',
            "e.toml:2: unknown key 'hint' (did you mean 'hints'?)",
        ),
        (  # was line 2, the [categories] header
            'title="x"\n[categories]\nColor=["a","b"]\n\nhint.same_house = ["a","b"]\n',
            "e.toml:5: category 'hint' must list its values",
        ),
        (
            '[categories]\nColor = ["a", "b"]\n[question]\nwhere = "a"\n"fnd" . \'x\' = 1\n',
            "e.toml:5: question: unknown key 'fnd' (did you mean 'find'?)",
        ),
        (
            'question.where = "a"\nquestion.find = "Colour"\n[categories]\nColor = ["a", "b"]\n',
            "e.toml:2: question: unknown category 'Colour' (did you mean 'Color'?)",
        ),
    ],
)
def test_toml_array_members_and_dotted_keys_are_located(text: str, expected: str) -> None:
    # audit 19-G #4
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "e.toml", kind="toml")
    assert str(info.value) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # a null in a multi-line pair was placed on the hint's line
            '{"categories": {"Color": ["a","b"]},\n "hints": [\n  {"fact": [1, "a"]},\n'
            '  {"fact": [\n    2,\n    null\n  ]}\n]}',
            6,
        ),
        (  # a number: the house
            '{"categories": {"Color": ["a","b"]},\n "hints": [\n  {"fact": [\n    7,\n'
            '    "a"\n  ]}\n]}',
            4,
        ),
        (  # a value of an object, on the line after the object's brace
            '{"categories": {"Color": ["a","b"]},\n "question": {\n  "where": "a",\n'
            '  "find": null\n }\n}',
            4,
        ),
        ('{"categories": {"Color": ["a","b"]},\n "question": {"where": "a",\n "find": 3}}', 3),
    ],
)
def test_json_numbers_and_null_name_their_own_line(text: str, expected: int) -> None:
    # audit 19-G #4: numbers and null carried no position, so the enclosing object's line
    # was named
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "e.json", kind="json")
    assert info.value.line == expected, str(info.value)


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        (
            '[categories]\nColor = ["a", "b"]\n[question]\nfind = 3\nwhere = "a"\n',
            "toml",
            "e.txt:4: question: unknown category 3",
        ),
        (
            '{"categories": {"Color": ["a", "b"]},\n "question": {"where": "a",\n "find": null}}',
            "json",
            "e.txt:3: question: unknown category null",
        ),
        (
            '{"categories": {"Color": ["a", "b"]},\n "question": {"where": "a", "find": true}}',
            "json",
            "e.txt:2: question: unknown category true",
        ),
        (
            '{"categories": {"Color": ["a", "b"]},\n "hints": [{"fact": [1,\n null]}]}',
            "json",
            "e.txt:3: expected a value name, got null",
        ),
        (
            '[categories]\nColor = ["a", "b"]\n[[hints]]\nnext_to = ["a", false]\n',
            "toml",
            "e.txt:4: expected a value name, got false",
        ),
        (
            '[categories]\nColor = ["a", "b"]\n[[hints]]\nnext_to = ["a", ["b"]]\n',
            "toml",
            'e.txt:4: expected a value name, got ["b"]',
        ),
    ],
)
def test_values_are_shown_as_written(text: str, kind: str, expected: str) -> None:
    # audit 19-G #7: '3', 'None' and None were shown for 3 and null
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "e.txt", kind=kind)
    assert str(info.value) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '[categories]\nA = ["x", "y"]\nB = ["p"]\n',
            "e.toml:3: category 'B' has 1 value but 'A' has 2; every category needs one value"
            " per house",
        ),
        (
            'houses = 2\n[categories]\nA = ["x"]\n',
            "e.toml:1: houses = 2, but each category lists 1 value",
        ),
    ],
)
def test_counts_are_in_the_right_number(text: str, expected: str) -> None:
    # audit 19-G #7: "1 values"
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "e.toml")
    assert str(info.value) == expected


def test_a_title_is_one_line() -> None:
    # audit 19-G #7: a title holding a line break was printed across two lines of the report
    text = 'description = "two\\nlines are fine here"\ntitle = "x\\ny"\n[categories]\nA = ["a"]\n'
    with pytest.raises(FormatError) as info:
        parse_puzzle(text, "t.toml")
    assert str(info.value) == "t.toml:2: title 'x\\ny' holds a line break; a title is one line"
    with pytest.raises(FormatError) as info:
        parse_puzzle(as_json(text), "t.json")
    assert info.value.message == "title 'x\\ny' holds a line break; a title is one line"
    assert parse_puzzle(text.replace("x\\ny", "x y"), "t.toml").description == (
        "two\nlines are fine here"
    )  # (the description is not printed)
    with pytest.raises(ValueError, match="a title is one line"):
        Puzzle("a\u2028b", [("A", ["a"])])


def test_toml_without_tomllib_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "tomllib", None)
    with pytest.raises(FormatError, match=r"needs Python 3\.11\+ or the tomli package"):
        parse_puzzle(EINSTEIN_TOML, "e.toml")
    assert parse_puzzle(HARBOUR_JSON, "h.json").houses == 4  # JSON still works


def test_missing_file_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="no such file"):
        load_puzzle(tmp_path / "absent.toml")


# --- properties: any puzzle survives a trip through either format, and typos are located ----

# (no control characters, DEL and U+0080-U+009F: a name is one line of text)
NAME_CHARS = st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_categories=("Cc",))
NAME = st.text(
    alphabet=NAME_CHARS,
    min_size=1,
    max_size=8,
).filter(lambda name: name.strip() != "")


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    n = draw(st.integers(1, 4))
    names = draw(st.lists(NAME, min_size=1, max_size=3, unique=True))
    categories = [
        (name, draw(st.lists(NAME, min_size=n, max_size=n, unique=True))) for name in names
    ]
    item = st.builds(Item, st.integers(0, len(names) - 1), st.integers(0, n - 1))
    relation = st.tuples(st.sampled_from(RELATIONS), item, item, NAME)
    relation = relation.filter(lambda t: t[1] != t[2]).map(
        lambda t: Hint(t[0], t[1], t[2], text=t[3])
    )
    fact = st.builds(
        lambda k, a, h: Hint(k, a, house=h), st.sampled_from(HOUSE_KINDS), item, st.integers(1, n)
    )
    hints = draw(st.lists(st.one_of(relation, fact), max_size=5))
    question = draw(st.none() | st.builds(Question, NAME, st.integers(0, len(names) - 1), item))
    return Puzzle(draw(NAME), categories, hints, question, draw(st.text(NAME_CHARS, max_size=20)))


def nameable(puzzle: Puzzle) -> bool:
    """Whether the loader takes the puzzle's names: no value begins with a category's name
    and a colon, and no two values qualify to the same ``Category:Value``."""
    prefixes = tuple(f"{name}:" for name, _values in puzzle.categories)
    values = [(name, value) for name, values in puzzle.categories for value in values]
    spelled = {f"{name}:{value}" for name, value in values}
    return len(spelled) == len(values) and not any(v.startswith(prefixes) for _n, v in values)


RELATIONS = [kind for kind in HINT_KINDS if kind not in HOUSE_KINDS]


def ref(puzzle: Puzzle, item: Item) -> str:
    return puzzle.item_name(item)


def to_document(puzzle: Puzzle) -> dict:
    document: dict = {
        "title": puzzle.title,
        "description": puzzle.description,
        "categories": dict(puzzle.categories),
        "hints": [],
    }
    if puzzle.question is not None:
        document["question"] = {
            "text": puzzle.question.text,
            "find": puzzle.categories[puzzle.question.find][0],
            "where": ref(puzzle, puzzle.question.where),
        }
    for hint in puzzle.hints:
        if hint.kind in HOUSE_KINDS:
            args = [hint.house, ref(puzzle, hint.a)]
        else:
            args = [ref(puzzle, hint.a), ref(puzzle, hint.b)]
        document["hints"].append({"text": hint.text, hint.kind: args})
    return document


def to_toml(document: dict) -> str:
    """A TOML writer for this schema (json.dumps strings are valid TOML basic strings)."""

    def q(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = [f"title = {q(document['title'])}", f"description = {q(document['description'])}"]
    lines.append("[categories]")
    lines += [f"{q(name)} = {q(values)}" for name, values in document["categories"].items()]
    if "question" in document:
        lines.append("[question]")
        lines += [f"{key} = {q(value)}" for key, value in document["question"].items()]
    for hint in document["hints"]:
        lines.append("[[hints]]")
        lines += [f"{key} = {q(value)}" for key, value in hint.items()]
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None)
@given(puzzles().filter(nameable))
def test_round_trip_through_toml_and_json(puzzle: Puzzle) -> None:
    document = to_document(puzzle)
    assert parse_puzzle(json.dumps(document, indent=1), "p.json", kind="json") == puzzle
    assert parse_puzzle(to_toml(document), "p.toml", kind="toml") == puzzle


@settings(max_examples=60, deadline=None)
@given(puzzles().filter(nameable), st.data())
def test_an_unknown_name_in_any_hint_points_at_its_line(
    puzzle: Puzzle, data: st.DataObject
) -> None:
    relations = [i for i, hint in enumerate(puzzle.hints) if hint.kind not in HOUSE_KINDS]
    if not relations:
        return
    index = data.draw(st.sampled_from(relations))
    document = to_document(puzzle)
    kind = puzzle.hints[index].kind
    document["hints"][index][kind][1] = "no such value"
    for text, fmt in ((json.dumps(document, indent=1), "json"), (to_toml(document), "toml")):
        with pytest.raises(FormatError) as info:
            parse_puzzle(text, "p", kind=fmt)
        assert info.value.message.startswith("unknown value 'no such value'")
        assert info.value.line is not None
        assert '"no such value"' in text.split("\n")[info.value.line - 1], fmt


def test_toml_nested_too_deeply_is_a_format_error(tmp_path: Path) -> None:
    # tomllib raises RecursionError (not TOMLDecodeError) from about 500 levels (audit 16-B)
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 500 + "]" * 500 + "\n")
    with pytest.raises(FormatError) as info:
        load_puzzle(deep)
    assert str(info.value) == f"{deep}: invalid TOML: nested too deeply"


@pytest.mark.parametrize(
    "document",
    [
        'question = {\n  text = "Who owns the fish?",\n}\n',  # newlines in an inline table
        'title = "Einstein\\x27s puzzle"\n',  # a \\xHH escape
    ],
)
def test_toml_is_read_as_toml_1_0_on_every_python(document):
    # tomllib (3.11-3.14) reads TOML 1.0; tomli 2.4+ reads TOML 1.1, so on Python 3.10 the
    # same puzzle file solved there and was "invalid TOML" elsewhere (pyproject pins tomli)
    if loader.tomllib is None:
        pytest.skip("reading TOML needs Python 3.11+ or the tomli package")
    if sys.version_info >= (3, 15):
        pytest.skip("Python 3.15's tomllib reads TOML 1.1 (README says so)")
    with pytest.raises(loader.tomllib.TOMLDecodeError):
        loader.tomllib.loads(document)


def test_a_value_that_only_begins_with_a_category_name_is_kept() -> None:
    # review 19b #2: "Room:1" in category Room (which has no value "1") names one thing, and
    # the first refusal rule took it all the same
    text = (
        'title = "rooms"\n[categories]\nRoom = ["Room:1", "Room:2"]\nName = ["Ann", "Bob"]\n'
        '[[hints]]\nsame_house = ["Room:1", "Bob"]\n'
    )
    puzzle = parse_puzzle(text, "r.toml")
    assert puzzle.categories[0][1] == ["Room:1", "Room:2"]


def test_not_fact_loads_from_toml_and_json_with_its_checks() -> None:
    toml = '[categories]\nName = ["Ann", "Bob"]\n[[hints]]\nnot_fact = [1, "Ann"]\n'
    (hint,) = parse_puzzle(toml, "n.toml").hints
    assert (hint.kind, hint.a, hint.house) == ("not_fact", Item(0, 0), 1)
    document = {"categories": {"Name": ["Ann", "Bob"]}, "hints": [{"not_fact": [2, "Bob"]}]}
    (hint,) = parse_puzzle(json.dumps(document), "n.json", kind="json").hints
    assert (hint.kind, hint.a, hint.house) == ("not_fact", Item(0, 1), 2)
    with pytest.raises(FormatError, match=r"n\.toml:4: hint 1: house 3 is not between 1 and 2"):
        parse_puzzle(toml.replace("[1,", "[3,"), "n.toml")
    with pytest.raises(FormatError, match="not_fact's house must be a number"):
        parse_puzzle(toml.replace("[1,", '["1",'), "n.toml")


NFC_ZOE, NFD_ZOE = "Zo\u00eb", "Zoe\u0308"  # the same name: one code point or e + U+0308


def test_a_name_written_in_another_unicode_form_names_the_same_value() -> None:
    # 'unknown value' for a name that looks, and is, the category's (audit 27-A #4)
    text = (
        f'[categories]\nName = ["{NFC_ZOE}", "Al"]\nPet = ["cat", "dog"]\n'
        f'[[hints]]\nsame_house = ["{NFD_ZOE}", "dog"]\n[[hints]]\nfact = [1, "Name:{NFD_ZOE}"]\n'
        f'[question]\nfind = "Pet"\nwhere = "{NFD_ZOE}"\n'
    )
    puzzle = parse_puzzle(text, "z.toml")
    assert puzzle.categories[0] == ("Name", [NFC_ZOE, "Al"])  # shown as the category wrote it
    assert puzzle.hints[0].a == Item(0, 0) and puzzle.hints[1].a == Item(0, 0)
    assert puzzle.question == Question(text="", find=1, where=Item(0, 0))


def test_one_name_twice_in_two_unicode_forms_is_a_duplicate() -> None:
    text = f'[categories]\nName = ["{NFC_ZOE}", "{NFD_ZOE}"]\n'
    with pytest.raises(FormatError) as caught:
        parse_puzzle(text, "z.toml")
    assert str(caught.value) == (
        f"z.toml:2: category 'Name' lists {NFD_ZOE!r} twice (once in another Unicode form)"
    )


def test_one_category_name_in_two_unicode_forms_is_named_twice() -> None:
    # both were taken, and question.find answered from the first (review 27 #1)
    text = f'[categories]\n"{NFD_ZOE}" = ["A", "B"]\n"{NFC_ZOE}" = ["C", "D"]\n'
    with pytest.raises(FormatError) as caught:
        parse_puzzle(text, "z.toml")
    assert str(caught.value) == (
        f"z.toml:3: category {NFC_ZOE!r} is named twice (once in another Unicode form)"
    )
