"""Telling a DIMACS file from an assignment DP-input file, and reading either."""

from __future__ import annotations

import os

from formats.assignment import parse_dp_input, read_dp_text
from formats.dimacs import parse_dimacs
from formats.formula import Formula
from formats.streams import display_name, read_bytes

FORMATS = ("dimacs", "assignment")
DIMACS_SUFFIXES = (".cnf", ".dimacs")
"""A file named so is DIMACS whatever its first line (also with ``.gz``, ``.bz2``, ``.xz``)."""
COMPRESSED_SUFFIXES = (".gz", ".xz", ".bz2")
"""Compressed inputs are read transparently (recognised by their magic bytes)."""


def strip_compression(name: str) -> str:
    """``name`` without a compression suffix (``x.cnf.gz`` -> ``x.cnf``)."""
    for suffix in COMPRESSED_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def named_dimacs(path: str | os.PathLike[str] | None) -> bool:
    """Whether ``path``'s name says DIMACS (``x.cnf``, ``x.dimacs``, ``x.cnf.gz``, …)."""
    if path is None:
        return False
    return strip_compression(os.fspath(path).lower()).endswith(DIMACS_SUFFIXES)


def detect_format(data: bytes | str, path: str | os.PathLike[str] | None = None) -> str:
    """``"dimacs"`` or ``"assignment"``: by ``path``'s suffix, else by the first non-blank line.

    A ``.cnf`` or ``.dimacs`` file is DIMACS: without a header, its first clause line
    need not end in ``0`` (a clause may span lines), which would otherwise look like
    the DP format. Else a ``c``/``p``/``%`` line means DIMACS; so does a clause line
    ending in ``0``. A first line that is just ``0`` (no clauses, then back matter) or
    a clause line without a terminating ``0`` means the assignment's DP input format.
    An empty input counts as DIMACS (whose reader then reports it).
    """
    if named_dimacs(path):
        return "dimacs"
    text = data if isinstance(data, str) else data[:65536].decode("utf-8", "replace")
    for line in text.lstrip("\ufeff").splitlines():
        tokens = line.split()
        if not tokens:
            continue
        if tokens[0][0] in "cp%":
            return "dimacs"
        if tokens == ["0"]:
            return "assignment"
        return "dimacs" if tokens[-1] == "0" else "assignment"
    return "dimacs"


def read_formula(
    path: str | os.PathLike[str], *, fmt: str | None = None, strict: bool = False
) -> tuple[Formula, str]:
    """Read a DIMACS or DP-input file (detected unless ``fmt`` is given).

    Returns the formula and the format it was read as. ``strict`` applies to
    DIMACS (the DP format has no header to disagree with).
    """
    data = read_bytes(path)
    name = display_name(path)
    kind = fmt or detect_format(data, path)
    if kind not in FORMATS:
        raise ValueError(f"unknown format {kind!r}; expected one of {FORMATS}")
    if kind == "dimacs":
        return parse_dimacs(data, name, strict=strict), kind
    return parse_dp_input(read_dp_text(data, name), name), kind
