"""Reading zebra puzzles from data files (TOML or JSON, same schema) into `puzzles.zebra.Puzzle`.

The schema, in TOML (JSON uses the same keys and nesting)::

    title = "Einstein's puzzle"          # optional (default: the file name)
    description = "There are five …"     # optional
    houses = 5                           # optional; must match the value counts

    [categories]                         # in order: the order fixes the numbering
    Color = ["Red", "White", "Green", "Yellow", "Blue"]
    Pet = ["Cats", "Horse", "Dogs", "Fish", "Birds"]

    [question]                           # optional
    text = "Who owns the fish?"
    find = "Nationality"                 # a category
    where = "Fish"                       # a value

    [[hints]]                            # in order: the order fixes the clause order
    text = "The Brit lives in the red house."   # optional
    same_house = ["Brit", "Red"]         # exactly one hint kind per hint (below)

The hint kinds (houses are numbered 1..N from left to right):

- ``same_house = [A, B]``: A and B are in the same house;
- ``not_same_house = [A, B]``: A and B are in different houses;
- ``next_to = [A, B]``: A's and B's houses are neighbours (either side);
- ``left_of = [A, B]``: A's house is *immediately* left of B's (B's is A's + 1);
- ``somewhere_left_of = [A, B]``: A's house is left of B's, at any distance;
- ``fact = [house, A]``: A is in that house (a number from 1 to N);
- ``not_fact = [house, A]``: A is not in that house.

A value is named by itself (``"Red"``) when no other category has a value of
that name, else as ``"Category:Value"``; so a value may not begin with a
category's name and a colon (``"Pet:Dog"``). Every mistake is a `FormatError` with
the file and, when it can be found, the line.

TOML needs Python 3.11's ``tomllib`` (or the ``tomli`` package on 3.10); JSON
works everywhere.
"""

from __future__ import annotations

import difflib
import os
import re
import unicodedata
from collections.abc import Sequence
from pathlib import PurePath
from typing import Any

from formats.dimacs import holds_line_break
from formats.errors import FormatError, count, number_too_long
from formats.streams import display_name, read_text
from puzzles.sourcemap import SourceMap, TomlSourceMap, decode_json, written
from puzzles.zebra import HINT_KINDS, HOUSE_KINDS, Hint, Item, Puzzle, Question

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the tomli backport has the same API (and before
    # 2.4 the same grammar, TOML 1.0; pyproject pins it so: a file must read alike everywhere)
    try:
        import tomli as tomllib  # type: ignore[no-redef]
    except ModuleNotFoundError:
        tomllib = None  # type: ignore[assignment]

ROOT_KEYS = ("title", "description", "houses", "categories", "question", "hints")
QUESTION_KEYS = ("text", "find", "where")
_TOML_POSITION = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)\s*$")


def load_puzzle(path: str | os.PathLike[str]) -> Puzzle:
    """Read a puzzle file (``-`` = stdin; .toml or .json, else detected from the text)."""
    name = display_name(path)
    text = read_text(path)
    suffix = PurePath(os.fspath(path)).suffix.lower()
    kind = {".json": "json", ".toml": "toml"}.get(suffix)
    return parse_puzzle(text, name, kind=kind, default_title=PurePath(name).stem)


def parse_puzzle(
    text: str, name: str = "<string>", *, kind: str | None = None, default_title: str = ""
) -> Puzzle:
    """Parse puzzle text; ``kind``: ``"toml"``, ``"json"`` or None (JSON if it starts with {)."""
    if kind is None:
        kind = "json" if text.lstrip().startswith("{") else "toml"
    if kind == "json":
        document, where = decode_json(text, name)
    elif kind == "toml":
        document, where = _decode_toml(text, name)
    else:
        raise ValueError(f"unknown puzzle file kind {kind!r}")
    return _Builder(document, where, name).build(default_title or name)


def _decode_toml(text: str, name: str) -> tuple[Any, SourceMap]:
    if tomllib is None:
        raise FormatError(
            name,
            None,
            "reading TOML needs Python 3.11+ or the tomli package; or write the puzzle as JSON",
        )
    try:
        document = tomllib.loads(text)
        where = TomlSourceMap(text, document)
    except RecursionError:
        raise FormatError(name, None, "invalid TOML: nested too deeply") from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        line: int | None = None
        match = _TOML_POSITION.search(message)
        if match:
            message = message[: match.start()]
            if match.group(1):
                line = int(match.group(1))
                message += f" (column {match.group(2)})"
            else:
                line = text.count("\n") + 1
                message += " (at the end of the file)"
        raise FormatError(name, line, f"invalid TOML: {message}") from None
    except ValueError as exc:  # int()'s digit limit (TOMLDecodeError is caught above)
        error = number_too_long(exc, text, name, "invalid TOML")
        if error is None:
            raise
        raise error from None
    return document, where


def _unprintable(what: str, name: str, kind: str = "name") -> str | None:
    """Why a name holding a line break or another control character (NUL, ESC, TAB, …)
    is refused, or None: it is printed in the solution table and written in
    ``c var N NAME`` lines, one line each, where an ESC would reach the terminal raw
    (audit 22-A #6)."""
    if holds_line_break(name):
        return f"{what} {name!r} holds a line break; a {kind} is one line"
    control = next((c for c in name if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        return f"{what} {name!r} holds a control character (U+{ord(control):04X}); a {kind} is text"
    return None


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` naming the choice closest to ``word``, or nothing."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _nfc(name: str) -> str:
    """``name`` in Unicode's composed form (NFC): names are compared so, as ``Zoë`` typed as
    ``e`` and a combining diaeresis looks, and is, the ``Zoë`` of one code point (audit
    27-A #4); they are shown as written."""
    return unicodedata.normalize("NFC", name)


def _composed(categories: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """``categories`` with every name `_nfc`, for comparing names (made once, by
    `_Builder.read_categories`)."""
    return [(_nfc(name), [_nfc(value) for value in values]) for name, values in categories]


class _Builder:
    """Checks a decoded document against the schema and builds the Puzzle."""

    def __init__(self, document: Any, where: SourceMap, name: str) -> None:
        self.document = document
        self.where = where
        self.name = name
        self.categories: list[tuple[str, list[str]]] = []
        self.composed: list[tuple[str, list[str]]] = []  # the same names, each `_nfc`

    def error(self, path: Sequence[Any], message: str) -> FormatError:
        return FormatError(self.name, self.where.line(path), message)

    def key_error(self, path: Sequence[Any], key: str, message: str) -> FormatError:
        return FormatError(self.name, self.where.key_line(path, key), message)

    def build(self, default_title: str) -> Puzzle:
        doc = self.document
        if not isinstance(doc, dict):
            raise FormatError(self.name, 1, "a puzzle file must hold a table/object at the top")
        for key in doc:
            if key not in ROOT_KEYS:
                raise self.key_error((), key, f"unknown key {key!r}{did_you_mean(key, ROOT_KEYS)}")
        title = self.text_field(doc, (), "title", default_title)
        problem = _unprintable("title", title, "title")  # (printed at the report's start)
        if problem is not None:
            raise self.key_error((), "title", problem)
        description = self.text_field(doc, (), "description", "")
        self.categories = self.read_categories()
        self.check_houses()
        hints = self.read_hints()
        question = self.read_question()
        try:
            return Puzzle(
                title=title,
                description=description,
                categories=self.categories,
                hints=hints,
                question=question,
            )
        except ValueError as exc:  # the model's own checks; the schema checks come first
            raise FormatError(self.name, None, str(exc)) from None

    def text_field(self, table: dict, path: tuple, key: str, default: str) -> str:
        value = table.get(key, default)
        if not isinstance(value, str):
            raise self.key_error(path, key, f"{key} must be a string")
        return str(value)

    def read_categories(self) -> list[tuple[str, list[str]]]:
        table = self.document.get("categories")
        if table is None:
            raise FormatError(
                self.name, None, "no [categories] table (each category lists its values)"
            )
        if not isinstance(table, dict) or not table:
            raise self.error(
                ("categories",), "categories must map each category name to its values"
            )
        categories: list[tuple[str, list[str]]] = []
        named: set[str] = set()  # the category names, composed (`_nfc`)
        for category, values in table.items():
            path = ("categories", category)
            if not category.strip():
                raise self.key_error(("categories",), category, "a category name must not be empty")
            composed = _nfc(category)
            if composed in named:  # (the same name twice as written: the parser's error)
                raise self.key_error(
                    ("categories",),
                    category,
                    f"category {category!r} is named twice (once in another Unicode form)",
                )
            named.add(composed)
            problem = _unprintable("category", category)
            if problem is not None:
                raise self.key_error(("categories",), category, problem)
            if not isinstance(values, list) or not values:
                raise self.error(path, f"category {category!r} must list its values")
            seen: dict[str, str] = {}  # composed: as written
            for index, value in enumerate(values):
                if not isinstance(value, str) or not value.strip():
                    raise self.error((*path, index), f"category {category!r}: values must be names")
                problem = _unprintable("value", value)
                if problem is not None:
                    raise self.error((*path, index), f"category {category!r}: {problem}")
                composed = _nfc(value)
                if composed in seen:
                    form = "" if seen[composed] == value else " (once in another Unicode form)"
                    raise self.error(
                        (*path, index), f"category {category!r} lists {value!r} twice{form}"
                    )
                seen[composed] = value
            categories.append((str(category), [str(value) for value in values]))
        self.composed = _composed(categories)
        self.check_qualified_names(categories)
        first_name, first_values = categories[0]
        for category, values in categories[1:]:
            if len(values) != len(first_values):
                raise self.error(
                    ("categories", category),
                    f"category {category!r} has {count(len(values), 'value')} but"
                    f" {first_name!r} has {len(first_values)}; every category needs one value"
                    " per house",
                )
        return categories

    def check_qualified_names(self, categories: list[tuple[str, list[str]]]) -> None:
        """Refuse value names that would make ``Category:Value`` ambiguous: a value spelled
        as another value's qualified name (``Pet:Dog`` beside Pet's ``Dog``: the spelling
        would name both), or two values that qualify to the same spelling. A value that only
        begins with a category's name and a colon (``Room:1`` where Room has no ``1``)
        names one thing and is kept. ``self.composed`` holds the same names, `_nfc`."""
        spelled: dict[str, str] = {}
        composed = self.composed
        for (category, values), (_, normal) in zip(categories, composed, strict=True):
            for index, value in enumerate(values):
                path = ("categories", category, index)
                for (other, written_values), (other_normal, other_values) in zip(
                    categories, composed, strict=True
                ):
                    prefix = other_normal + ":"
                    rest = normal[index][len(prefix) :]
                    if normal[index].startswith(prefix) and rest in other_values:
                        named = written_values[other_values.index(rest)]
                        raise self.error(
                            path,
                            f"category {category!r}: value {value!r} is also how {other}'s"
                            f" {named!r} is named; rename the value",
                        )
                qualified = f"{category}:{value}"
                name = _nfc(qualified)
                if name in spelled:
                    raise self.error(
                        path,
                        f"{qualified!r} would name both {spelled[name]} and {category}'s"
                        f" {value!r}; rename one of them",
                    )
                spelled[name] = f"{category}'s {value!r}"

    def check_houses(self) -> None:
        if "houses" not in self.document:
            return
        houses = self.document["houses"]
        values = len(self.categories[0][1])
        if isinstance(houses, bool) or not isinstance(houses, int) or houses < 1:
            raise self.key_error((), "houses", "houses must be a positive whole number")
        if houses != values:
            raise self.key_error(
                (), "houses", f"houses = {houses}, but each category lists {count(values, 'value')}"
            )

    def resolve(self, ref: Any, path: Sequence[Any]) -> Item:
        """An item from ``"Value"`` or ``"Category:Value"`` (names may contain colons)."""
        if not isinstance(ref, str):
            raise self.error(path, f"expected a value name, got {written(ref)}")
        found: list[Item] = []
        key = _nfc(ref)
        for index, (category, values) in enumerate(self.composed):
            if key in values:
                found.append(Item(index, values.index(key)))
            prefix = category + ":"
            if key.startswith(prefix) and key[len(prefix) :] in values:
                found.append(Item(index, values.index(key[len(prefix) :])))
        matches = list(dict.fromkeys(found))
        if len(matches) == 1:
            return matches[0]
        if matches:
            spelled = " or ".join(repr(self.qualified(item)) for item in matches)
            raise self.error(path, f"{ref!r} names values of several categories; write {spelled}")
        raise self.error(path, self.unknown(ref))

    def qualified(self, item: Item) -> str:
        name, values = self.categories[item.category]
        return f"{name}:{values[item.value]}"

    def unknown(self, ref: str) -> str:
        """Why ``ref`` names nothing, with a suggestion when one is close."""
        names = [name for name, _values in self.categories]
        if ":" in ref:
            for name, values in self.categories:
                if ref.startswith(name + ":"):
                    rest = ref[len(name) + 1 :]
                    return f"{name} has no value {rest!r}{did_you_mean(rest, values)}"
            category = ref.partition(":")[0]
            return f"unknown category {category!r} in {ref!r}{did_you_mean(category, names)}"
        return f"unknown value {ref!r}{did_you_mean(ref, self._all_values())}"

    def _all_values(self) -> list[str]:
        return [value for _name, values in self.categories for value in values]

    def read_hints(self) -> list[Hint]:
        hints = self.document.get("hints", [])
        if not isinstance(hints, list):
            raise self.key_error((), "hints", "hints must be a list of hint tables")
        return [self.read_hint(index, table) for index, table in enumerate(hints)]

    def read_hint(self, index: int, table: Any) -> Hint:
        path = ("hints", index)
        number = index + 1
        if not isinstance(table, dict):
            raise self.error(path, f"hint {number} must be a table")
        kinds = [key for key in table if key in HINT_KINDS]
        for key in table:
            if key not in HINT_KINDS and key != "text":
                raise self.key_error(
                    path,
                    key,
                    f"hint {number}: unknown key {key!r}{did_you_mean(key, (*HINT_KINDS, 'text'))}",
                )
        if len(kinds) != 1:
            found = "none" if not kinds else " and ".join(kinds)
            raise self.error(
                path, f"hint {number} needs exactly one of {', '.join(HINT_KINDS)} (found {found})"
            )
        kind = kinds[0]
        text = self.text_field(table, path, "text", "")
        args = table[kind]
        where = (*path, kind)
        if not isinstance(args, list) or len(args) != 2:
            shape = "[house, value]" if kind in HOUSE_KINDS else "[value, value]"
            raise self.error(where, f"hint {number}: {kind} takes a pair {shape}")
        if kind in HOUSE_KINDS:
            house = args[0]
            count = len(self.categories[0][1])
            if isinstance(house, bool) or not isinstance(house, int):
                raise self.error((*where, 0), f"hint {number}: {kind}'s house must be a number")
            if not 1 <= house <= count:
                raise self.error(
                    (*where, 0), f"hint {number}: house {house} is not between 1 and {count}"
                )
            return Hint(kind, self.resolve(args[1], (*where, 1)), house=house, text=text)
        a = self.resolve(args[0], (*where, 0))
        b = self.resolve(args[1], (*where, 1))
        if a == b:
            raise self.error(where, f"hint {number}: {kind} needs two different values")
        return Hint(kind, a, b, text=text)

    def read_question(self) -> Question | None:
        table = self.document.get("question")
        if table is None:
            return None
        path = ("question",)
        if not isinstance(table, dict):
            raise self.key_error(
                (), "question", "question must be a table with text, find and where"
            )
        for key in table:
            if key not in QUESTION_KEYS:
                raise self.key_error(
                    path, key, f"question: unknown key {key!r}{did_you_mean(key, QUESTION_KEYS)}"
                )
        for key in ("find", "where"):
            if key not in table:
                raise self.error(path, f"question needs {key!r}")
        text = self.text_field(table, path, "text", "")
        find = table["find"]
        names = [name for name, _values in self.categories]
        composed = [name for name, _values in self.composed]
        if not isinstance(find, str) or _nfc(find) not in composed:
            raise self.error(
                (*path, "find"),
                f"question: unknown category {written(find)}{did_you_mean(str(find), names)}",
            )
        where = self.resolve(table["where"], (*path, "where"))
        return Question(text=text, find=composed.index(_nfc(find)), where=where)
