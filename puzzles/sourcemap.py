"""Line numbers for puzzle data files: where in the TOML/JSON text a parsed value came from.

``tomllib`` and ``json`` return plain data without positions, but an error such
as "unknown value 'Grene'" should point at its line. A :class:`SourceMap` answers
``line(path)`` for a path into the parsed document (``("hints", 3, "same_house", 1)``)
and ``key_line(path, key)`` for the line that defines a key, or None when it
cannot tell (the caller then names the file alone).

- JSON: exact. The document is decoded a second time with the pure-Python
  scanner, whose string, array and object parsers are wrapped to remember where
  each value starts (numbers and ``null`` too: their array or object keeps
  their lines).
- TOML: a line scanner that knows TOML's strings, comments and brackets finds
  table headers, ``key =`` lines (dotted keys too) and the start of every
  ``[[hints]]`` table (or of every inline table in a ``hints = [ … ]`` array);
  values inside a block are found by searching for their quoted spelling (the
  n-th spelling for the n-th equal member of an array).

Messages about those files word values with `written` (as the file wrote them)
and numbers of things with `count` (``1 house``, ``2 houses``).
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, Protocol

from formats.errors import FormatError, number_too_long

Path = Sequence[Any]


class SourceMap(Protocol):
    """Maps paths into a parsed document to 1-based line numbers (None = unknown)."""

    def line(self, path: Path) -> int | None:
        """The line where the value at ``path`` (or the nearest enclosing value) starts."""

    def key_line(self, path: Path, key: str) -> int | None:
        """The line where ``key`` is defined in the table/object at ``path``."""


def written(value: Any) -> str:
    """A decoded value as the data file wrote it, for messages: a string quoted as names
    are (``'Dog'``), anything else in JSON's spelling (``3``, ``null``, ``true``,
    ``[0, 1]``), never Python's (``None``, ``True``, ``'3'`` for a number)."""
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # (a TOML date, say)
        return str(value)


# --------------------------------------------------------------------------- JSON


class _Str(str):
    line = 0


class _List(list):
    line = 0
    lines: list[int]


class _Dict(dict):
    line = 0
    lines: dict[str, int]


def parse_json_located(text: str) -> Any:
    """Decode JSON like ``json.loads``; strings, lists and dicts carry ``.line``, and
    lists and dicts also ``.lines``: the line where each member's value starts (numbers,
    ``true``, ``false`` and ``null`` cannot carry a line of their own).

    Raises ``json.JSONDecodeError`` exactly as ``json.loads`` does. Lines are found by
    bisection in the line breaks' positions, so the time stays linear in the text
    (counting the breaks from the start for every value made a 1.9 MB file take 58 s).
    """
    decoder = json.JSONDecoder()
    breaks = [match.start() for match in re.finditer("\n", text)]

    def _line_at(s: str, index: int) -> int:
        return bisect_left(breaks, index) + 1  # (s is text: the decoder's own argument)

    def parse_string(s: str, end: int, strict: bool) -> tuple[str, int]:
        value, new_end = json.decoder.scanstring(s, end, strict)
        located = _Str(value)
        located.line = _line_at(s, end - 1)
        return located, new_end

    def recording(scan_once: Any, starts: list[int]) -> Any:
        """``scan_once`` that notes where each value it scans starts (the decoder calls it
        at the first character of every array member and object value)."""

        def scan(s: str, index: int) -> Any:
            starts.append(index)
            return scan_once(s, index)

        return scan

    def parse_object(
        s_and_end: tuple[str, int], strict: bool, scan_once: Any, *hooks_and_memo: Any
    ) -> tuple[dict, int]:
        s, end = s_and_end
        memo = hooks_and_memo[2] if len(hooks_and_memo) > 2 else None
        starts: list[int] = []
        pairs, new_end = json.decoder.JSONObject(
            s_and_end, strict, recording(scan_once, starts), None, lambda pairs: pairs, memo
        )
        located = _Dict()
        located.lines = {}
        for (key, value), start in zip(pairs, starts, strict=True):
            if key in located:
                raise json.JSONDecodeError(
                    f"duplicate key {key!r}", s, _second_key(s, key, end - 1, new_end)
                )
            located[key] = value
            located.lines[key] = _line_at(s, start)
        located.line = _line_at(s, end - 1)
        return located, new_end

    def parse_array(s_and_end: tuple[str, int], scan_once: Any) -> tuple[list, int]:
        s, end = s_and_end
        starts: list[int] = []
        value, new_end = json.decoder.JSONArray(s_and_end, recording(scan_once, starts))
        located = _List(value)
        located.lines = [_line_at(s, start) for start in starts]
        located.line = _line_at(s, end - 1)
        return located, new_end

    decoder.parse_string = parse_string  # type: ignore[attr-defined]
    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.parse_array = parse_array  # type: ignore[attr-defined]
    decoder.scan_once = json.scanner.py_make_scanner(decoder)  # type: ignore[attr-defined]
    return decoder.decode(text)


_JSON_KEY = re.compile(r'"(?:[^"\\]|\\.)*"\s*:')
"""A JSON string followed by a colon: an object key, however it is written."""


def _key_starts(s: str, key: str, start: int = 0, end: int | None = None) -> list[int]:
    """Where ``key`` is written as an object key in ``s[start:end]``: keys are compared
    decoded, so ``"notés"`` and ``"h\\u006fuses"`` are found (``json.dumps`` writes them
    otherwise)."""
    found = []
    for match in _JSON_KEY.finditer(s, start, len(s) if end is None else end):
        try:
            written = json.loads(match.group().rstrip()[:-1])
        except ValueError:
            continue
        if written == key:
            found.append(match.start())
    return found


def _second_key(s: str, key: str, start: int, end: int) -> int:
    """Where ``key`` is written for the second time in the object ``s[start:end]``."""
    found = _key_starts(s, key, start, end)
    return found[1] if len(found) > 1 else start


class JsonSourceMap:
    """Exact positions from a document decoded by :func:`parse_json_located`."""

    def __init__(self, text: str, document: Any) -> None:
        self.lines = text.split("\n")
        self.document = document

    def line(self, path: Path) -> int | None:
        node = self.document
        best = getattr(node, "line", None)
        for step in path:
            try:
                child = node[step]
            except (KeyError, IndexError, TypeError):
                break
            lines = getattr(node, "lines", None)
            if lines is not None:  # where the member starts: a number or null has no .line
                best = lines[step]
            node = child
            best = getattr(node, "line", best)
        return best

    def key_line(self, path: Path, key: str) -> int | None:
        start = self.line(path) or 1
        for number in range(start, len(self.lines) + 1):
            if _key_starts(self.lines[number - 1], key):
                return number
        return self.line(path)


# --------------------------------------------------------------------------- TOML

_KEY_PART = r"""(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))"""
_KEY_PARTS = re.compile(r"\s*" + _KEY_PART + r"\s*\.?")
_KEY = re.compile(r"\s*(" + _KEY_PART + r"(?:\s*\.\s*" + _KEY_PART + r")*)\s*=")
"""A ``key =`` line; the key may be dotted (``categories.Pet = …``, ``a."b c".d = …``)."""
_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")


def decode_json(text: str, name: str) -> tuple[Any, JsonSourceMap]:
    """The document in ``text`` and where its parts are; invalid JSON is a FormatError
    naming ``name`` and the line."""
    try:
        document = parse_json_located(text)
    except json.JSONDecodeError as exc:
        raise FormatError(
            name, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})"
        ) from None
    except RecursionError:
        raise FormatError(name, None, "invalid JSON: nested too deeply") from None
    except ValueError as exc:  # int()'s digit limit (JSONDecodeError is caught above)
        error = number_too_long(exc, text, name, "invalid JSON")
        if error is None:
            raise
        raise error from None
    return document, JsonSourceMap(text, document)


def _toml_keys(match: re.Match[str]) -> list[str]:
    """The parts of a (possibly dotted) key matched by `_KEY`: ``a."b.c"`` -> ``["a", "b.c"]``."""
    parts = []
    for part in _KEY_PARTS.finditer(match.group(1)):
        basic, literal, bare = part.groups()
        if basic is not None:
            try:
                parts.append(json.loads('"' + basic + '"'))
            except ValueError:
                parts.append(basic)
        else:
            parts.append(literal if literal is not None else bare)
    return parts


def _toml_key(match: re.Match[str]) -> str:
    """The first part of a key matched by `_KEY` (the key of the table the line is in)."""
    return _toml_keys(match)[0]


def _header_name(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        return raw[1:-1]
    return raw


class TomlSourceMap:
    """Approximate positions for TOML: table headers, key lines and hint blocks."""

    def __init__(self, text: str, document: Any) -> None:
        self.lines = text.split("\n")
        self.document = document
        # (table name, key) -> line; the root table is "".
        self.keys: dict[tuple[str, str], int] = {}
        self.tables: dict[str, int] = {}
        self.hint_starts: list[int] = []
        self._scan()

    def _scan(self) -> None:
        table = ""
        depth = 0
        string: str | None = None  # the open multi-line string delimiter, if any
        root_key = ""
        inline_hints: list[int] = []
        array_hints: list[int] = []
        for number, line in enumerate(self.lines, start=1):
            if string is None and depth == 0:
                header = _HEADER.match(line)
                key = _KEY.match(line)
                if header and not key:
                    name = _header_name(header.group(2))
                    table = name
                    if header.group(1) == "[[" and name == "hints":
                        array_hints.append(number)
                    else:
                        self.tables.setdefault(name, number)
                    continue
                if key:
                    parts = _toml_keys(key)
                    root_key = parts[0]
                    # a dotted key defines a key in each table it names: the line of
                    # ``categories.Pet = …`` is that of "categories" and of its "Pet"
                    owner = table
                    for part in parts:
                        self.keys.setdefault((owner, part), number)
                        owner = f"{owner}.{part}" if owner else part
            in_hints_array = table == "" and root_key == "hints"
            starts = inline_hints if in_hints_array else None
            depth, string = self._walk(line, depth, string, number, starts)
        self.hint_starts = array_hints or inline_hints

    @staticmethod
    def _walk(
        line: str, depth: int, string: str | None, number: int, starts: list[int] | None
    ) -> tuple[int, str | None]:
        """Advance bracket depth and multi-line string state over one line."""
        i = 0
        n = len(line)
        while i < n:
            if string is not None:
                end = line.find(string, i)
                if end < 0:
                    return depth, string
                i = end + 3
                string = None
                continue
            c = line[i]
            if c == "#":
                break
            if line.startswith('"""', i) or line.startswith("'''", i):
                string = line[i : i + 3]
                i += 3
                continue
            if c == '"':
                i += 1
                while i < n and line[i] != '"':
                    i += 2 if line[i] == "\\" else 1
            elif c == "'":
                close = line.find("'", i + 1)
                i = n if close < 0 else close
            elif c in "[{":
                if c == "{" and depth == 1 and starts is not None:
                    starts.append(number)
                depth += 1
            elif c in "]}":
                depth = max(depth - 1, 0)
            i += 1
        return depth, string

    def _hint_block(self, index: int) -> tuple[int, int] | None:
        hints = self.document.get("hints") if isinstance(self.document, dict) else None
        if not isinstance(hints, list) or len(self.hint_starts) != len(hints):
            return None
        if not 0 <= index < len(self.hint_starts):
            return None
        start = self.hint_starts[index]
        if index + 1 < len(self.hint_starts):
            end = self.hint_starts[index + 1]
        else:
            end = self._block_end(start, len(self.lines) + 1)
        return start, end

    def _block_end(self, start: int, limit: int) -> int:
        # The last [[hints]] table runs until the next table header.
        for number in range(start + 1, limit):
            if _HEADER.match(self.lines[number - 1]) and not _KEY.match(self.lines[number - 1]):
                return number
        return limit

    def _find_token(self, value: Any, start: int, end: int, nth: int = 1) -> int | None:
        """The line of the ``nth`` quoted spelling of the string ``value`` (of a number: the
        first) from line ``start`` on; None when there are fewer."""
        if isinstance(value, str):
            needles = [json.dumps(value, ensure_ascii=False), "'" + value + "'"]
        elif isinstance(value, bool) or not isinstance(value, int):
            return None
        else:
            needles, nth = [str(value)], 1
        for number in range(start, min(end, len(self.lines) + 1)):
            text = self.lines[number - 1]
            nth -= sum(text.count(needle) for needle in needles)
            if nth <= 0:
                return number
        return None

    def _nth(self, path: Path) -> int:
        """Which occurrence of its spelling an array member is: 2 for the second "Dog" of
        ``["Dog", "Cat", "Dog"]`` (1 for anything else)."""
        if len(path) < 2 or not isinstance(path[-1], int) or isinstance(path[-1], bool):
            return 1
        parent = self._value(path[:-1])
        if not isinstance(parent, list) or not 0 <= path[-1] < len(parent):
            return 1
        value = parent[path[-1]]
        if not isinstance(value, str):
            return 1
        return sum(1 for item in parent[: path[-1] + 1] if item == value and isinstance(item, str))

    def _value(self, path: Path) -> Any:
        node = self.document
        for step in path:
            try:
                node = node[step]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    def line(self, path: Path) -> int | None:
        if not path:
            return None
        head = path[0]
        if head == "hints" and len(path) >= 2 and isinstance(path[1], int):
            block = self._hint_block(path[1])
            if block is None:
                return self.key_line((), "hints") or self.tables.get("hints")
            start, end = block
            if len(path) >= 3:
                key_line = self._key_in_block(path[2], start, end)
                found = self._find_token(
                    self._value(path), key_line or start, end, self._nth(path)
                )
                return found or key_line or start
            return start
        if len(path) >= 2 and isinstance(path[1], str):
            line = self.key_line((head,), path[1])
            if line is not None:
                if len(path) >= 3:
                    value = self._value(path)
                    end = len(self.lines) + 1
                    return self._find_token(value, line, end, self._nth(path)) or line
                return line
        return self.keys.get(("", head)) or self.tables.get(head)

    def _key_in_block(self, key: Any, start: int, end: int) -> int | None:
        if not isinstance(key, str):
            return None
        for number in range(start, min(end, len(self.lines) + 1)):
            text = self.lines[number - 1]
            match = _KEY.match(text)
            if match and _toml_key(match) == key:
                return number
            if re.search(r"[{,]\s*" + re.escape(key) + r"\s*=", text):
                return number
        return None

    def key_line(self, path: Path, key: str) -> int | None:
        if not path:
            return self.keys.get(("", key)) or self.tables.get(key)
        head = path[0]
        if head == "hints" and len(path) >= 2 and isinstance(path[1], int):
            block = self._hint_block(path[1])
            if block is None:
                return self.line(path)
            return self._key_in_block(key, *block) or block[0]
        table_line = self.keys.get((head, key))
        if table_line is not None:
            return table_line
        # An inline table (``question = { find = … }``): the key's own line.
        outer = self.keys.get(("", head))
        if outer is not None:
            return self._key_in_block(key, outer, len(self.lines) + 1) or outer
        return self.tables.get(head)
