"""formats.dimacs: the streaming DIMACS reader (lenient and strict) and the atomic writer."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.formula import CNF

import formats.dimacs as dimacs
from formats import FormatError, Formula
from formats.detect import read_dimacs_or_dp, read_formula
from formats.dimacs import (
    clause_line,
    dimacs_text,
    parse_dimacs,
    parse_dimacs_blocks,
    read_dimacs,
    write_dimacs,
)

# -- a reference parser: the plainest token loop, line by line ------------------------------


def reference_parse(text: str) -> tuple[tuple[int, int] | None, list[list[int]], list[str], int]:
    """(header, clauses, comments, line where the last clause began) by the rules of the
    module docstring, written naively."""
    if text.startswith("\ufeff"):
        text = text[1:]
    header = None
    clauses: list[list[int]] = []
    comments: list[str] = []
    current: list[int] = []
    began = 0
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        stripped = line.lstrip(" \t")
        if stripped.startswith("c"):
            body = stripped[1:]
            comments.append(body[1:] if body[:1] in (" ", "\t") else body)
            continue
        if stripped.startswith("p"):
            _, _, nvars, nclauses = stripped.split()
            header = (int(nvars), int(nclauses))
            continue
        if stripped.startswith("%"):
            break
        for token in stripped.split():
            value = int(token)
            if value:
                if not current:
                    began = number
                current.append(value)
            else:
                clauses.append(current)
                current = []
    if current:
        clauses.append(current)
    return header, clauses, comments, began


# -- hypothesis: DIMACS texts with every layout the reader must accept -----------------------

literals = st.integers(1, 120).flatmap(lambda v: st.sampled_from([v, -v]))
clause_lists = st.lists(
    st.one_of(st.lists(literals, min_size=1, max_size=6), st.just([])),
    max_size=25,
)
blanks = st.sampled_from([" ", "  ", "\t", " \t ", "   "])
comment_texts = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")),
    max_size=12,
).filter(lambda s: not s.startswith(("var ", "back-matter ")))


@st.composite
def dimacs_documents(draw: st.DrawFn) -> tuple[str, list[list[int]], list[str], bool]:
    """A DIMACS text, the clauses and comments it holds, and whether its last 0 is missing."""
    clauses = draw(clause_lists)
    if not any(c for c in clauses):
        clauses = [*clauses, [1]]
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    comments: list[str] = []

    def comment_line() -> str:
        text = draw(comment_texts)
        comments.append(text)
        return "c " + text + newline

    out = []
    if draw(st.booleans()):
        out.append("\ufeff")
    if draw(st.booleans()):
        out.append(comment_line())
    nvars = max((abs(lit) for clause in clauses for lit in clause), default=0)
    out.append(f"p{draw(blanks)}cnf{draw(blanks)}{nvars}{draw(blanks)}{len(clauses)}")
    out.append(draw(st.sampled_from(["", " ", "\t"])) + newline)
    tokens = [str(lit) for clause in clauses for lit in [*clause, 0]]
    drop_last_zero = bool(clauses[-1]) and draw(st.integers(0, 4)) == 0
    if drop_last_zero:
        tokens.pop()
    at_line_start = True
    for token in tokens:
        if at_line_start:
            out.append(draw(st.sampled_from(["", "", " ", "\t"])))
        out.append(token)
        choice = draw(st.integers(0, 9))
        if choice < 5:
            out.append(draw(blanks))
            at_line_start = False
        else:
            out.append(draw(st.sampled_from(["", " ", "\t"])) + newline)
            while draw(st.integers(0, 4)) == 0:
                out.append(comment_line() if draw(st.booleans()) else newline)
            at_line_start = True
    if not at_line_start or draw(st.booleans()):
        out.append(newline)
    if draw(st.integers(0, 3)) == 0:
        out.append("%" + newline + "0" + newline)
    return "".join(out), clauses, comments, drop_last_zero


def _check_against_reference(formula: Formula, text: str, clauses, comments, dropped) -> None:
    header, expected, expected_comments, began = reference_parse(text)
    assert expected == clauses  # the generator and the reference agree
    assert formula.clauses == expected
    assert formula.comments == expected_comments == comments
    assert header is not None
    assert formula.nvars == max(header[0], formula.max_var)
    assert formula.declared_clauses == header[1]
    messages = [(w.line, w.message) for w in formula.warnings]
    assert messages == ([(began, "last clause has no terminating 0")] if dropped else [])


@settings(max_examples=150, deadline=None)
@given(dimacs_documents(), st.sampled_from([1, 2, 3, 5, 8, 13, 64, 1 << 20]))
def test_parse_matches_reference_at_any_block_size(document, block_size):
    text, clauses, comments, dropped = document
    with mock.patch.object(dimacs, "BLOCK_SIZE", block_size):
        formula = parse_dimacs(text, "t.cnf")
    _check_against_reference(formula, text, clauses, comments, dropped)


_COMPRESSORS = {
    "plain": lambda data: data,
    "gzip": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
}


@settings(max_examples=60, deadline=None)
@given(
    dimacs_documents(),
    st.sampled_from([1, 2, 3, 7, 16, 1 << 20]),
    st.sampled_from(sorted(_COMPRESSORS)),
)
def test_read_matches_reference_through_streamed_blocks(document, block_size, compression):
    """read_dimacs streams blocks from the file (and the decompressor) of any size."""
    text, clauses, comments, dropped = document
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.cnf"  # the name never says which compression it is
        path.write_bytes(_COMPRESSORS[compression](text.encode("utf-8")))
        with mock.patch.object(dimacs, "BLOCK_SIZE", block_size):
            formula = read_dimacs(path)
    _check_against_reference(formula, text, clauses, comments, dropped)


# -- the reader, rule by rule -----------------------------------------------------------------


def test_clause_spans_lines_and_lines_hold_several_clauses():
    formula = parse_dimacs("p cnf 3 3\n1 -2\n 0 2 3 0 -1\n-3\n\n0\n")
    assert formula.clauses == [[1, -2], [2, 3], [-1, -3]]
    assert formula.warnings == []


def test_comments_anywhere_even_inside_a_clause():
    text = "c first\np cnf 2 2\nc second\n1\nc inside\n-2 0\n  c indented\n2 0\nc last"
    formula = parse_dimacs(text)
    assert formula.clauses == [[1, -2], [2]]
    assert formula.comments == ["first", "second", "inside", "indented", "last"]


@pytest.mark.parametrize("strict", [False, True])
def test_a_comment_after_literals_runs_to_the_end_of_the_line(strict, tmp_path):
    # minisat, cadical (--strict too) and picosat read `1 0 c note` so; it was an error
    text = "p cnf 2 3\n1 0 c foo -1 0\n-1 2 c inside 7 0\n0\n2 0 cx\n"
    formula = parse_dimacs(text, strict=strict)
    assert formula.clauses == [[1], [-1, 2], [2]]
    path = tmp_path / "c.cnf"
    path.write_text(text)
    assert [clause_line(path, i) for i in (1, 2, 3)] == [2, 3, 5]
    # `0c`: minisat, cadical, kissat and picosat all end the clause and start a comment
    glued = "p cnf 2 3\n1 0c\n-1 2 00c note\n0c\n"
    assert parse_dimacs(glued, strict=strict).clauses == [[1], [-1, 2], []]
    path.write_text(glued)
    assert [clause_line(path, i) for i in (1, 2, 3)] == [2, 3, 4]
    for bad in ("2c 0", "-0c"):  # only a clause's 0 may carry one (as all but picosat say)
        with pytest.raises(FormatError, match=f"found '{bad.split()[0]}'"):
            parse_dimacs(f"p cnf 2 1\n1 {bad}\n", strict=strict)


@pytest.mark.parametrize("strict", [False, True])
def test_a_comment_after_literals_must_be_utf8_like_any_comment(strict):
    text = b"p cnf 2 2\n1 2 0 c caf\xe9\n-1 0\n"
    if strict:
        with pytest.raises(FormatError, match="comment is not UTF-8 text") as caught:
            parse_dimacs(text, "x.cnf", strict=True)
        assert caught.value.line == 2
        return
    formula = parse_dimacs(text, "x.cnf")
    assert formula.clauses == [[1, 2], [-1]] and formula.comments == []
    assert [str(w) for w in formula.warnings] == [
        "x.cnf:2: comment is not UTF-8 text (a comment after literals: dropped)"
    ]


def test_many_warnings_of_a_kind_are_listed_ten_then_counted():
    # a million Latin-1 comment lines gave a million warnings and 128 MB kept (audit 28-A #1)
    lines = [b"p cnf 3 1"] + [b"c caf\xe9 %d" % i for i in range(25)] + [b"1 2 0 c \xe9"]
    lines += [b"c var 1 n%d" % i for i in range(13)]
    formula = parse_dimacs(b"\n".join(lines) + b"\n", "x.cnf")
    shown = [str(w) for w in formula.warnings]
    utf8 = "comment is not UTF-8 text; undecodable bytes replaced"
    assert shown[:10] == [f"x.cnf:{n}: {utf8}" for n in range(2, 12)]
    renamed = [f"x.cnf:{29 + i}: variable 1 is named again: 'n{i + 1}' replaces 'n{i}'"
               for i in range(10)]  # fmt: skip
    assert shown[10:20] == renamed
    assert shown[20:] == [
        "x.cnf: 16 more warnings like line 2's, not listed",  # (15 comments and the inline one)
        "x.cnf: 2 more warnings like line 29's, not listed",
    ]
    assert formula.clauses == [[1, 2]] and formula.names == {1: "n12"}
    few = parse_dimacs(b"\n".join(lines[:11]) + b"\n1 2 0\n", "x.cnf")
    assert len(few.warnings) == 10 and "not listed" not in str(few.warnings[-1])


def test_header_with_runs_of_blanks_and_tabs():
    formula = parse_dimacs("p \t cnf\t\t4   2 \t\n1 0 4 0\n")
    assert (formula.nvars, formula.declared_clauses, formula.clauses) == (4, 2, [[1], [4]])


def test_satlib_percent_marker_ends_the_input():
    text = "p cnf 3 2\n1 -2 0\n2 3 0\n%\n0\n\n"
    formula = parse_dimacs(text, strict=True)
    assert formula.clauses == [[1, -2], [2, 3]]  # the 0 after % is not an empty clause
    assert formula.warnings == []


def test_everything_after_percent_is_ignored_even_garbage():
    formula = parse_dimacs("p cnf 1 1\n1 0\n% trailer\n0\nnot dimacs at all\n\x00\n")
    assert formula.clauses == [[1]]
    assert [str(w) for w in formula.warnings] == [
        "<string>:5: 'not dimacs at all' after the '%' line that ends the input (line 3) is "
        "ignored (SATLIB puts only '0' there)"
    ]


def test_clauses_after_percent_are_no_silent_loss():
    # '1 -2 0 / % / -1 0 / 2 0' answered SAT with --strict, the last two clauses dropped
    # unseen; cadical, picosat, minisat and PySAT refuse the file (audit 21-B #6)
    text = "p cnf 2 1\n1 -2 0\n% the rest\n-1 0\n2 0\n"
    with pytest.raises(FormatError) as caught:
        parse_dimacs(text, strict=True)
    assert (caught.value.line, caught.value.message) == (
        4, "'-1 0' after the '%' line that ends the input (line 3); SATLIB puts only '0' there"
    )
    assert parse_dimacs(text).clauses == [[1, -2]]
    # SATLIB's own trailer, comments and more % lines pass; so do blocks read after the %
    blocks = [(b"p cnf 1 1\n1 0\n%\n", 1), (b"0\n\nc end\n%\n", 4), (b"0\n", 8)]
    formula = parse_dimacs_blocks(iter(blocks), "f.cnf", strict=True)
    assert formula.clauses == [[1]] and formula.warnings == []
    blocks.append((b"1 0\n", 9))
    with pytest.raises(FormatError, match=r"^f\.cnf:9: '1 0' after the '%' line"):
        parse_dimacs_blocks(iter(blocks), "f.cnf", strict=True)


@pytest.mark.parametrize(
    ("text", "line"),
    [("s SATISFIABLE\nv 1 -2 0\n", 1), ("c cadical\ns UNSATISFIABLE\n", 2),
     ("SAT\n1 -2 0\n", 1), ("UNSAT\n", 1)],
)  # fmt: skip
def test_a_solver_s_answer_given_as_a_cnf_is_named(text, line, tmp_path):
    # swapped decode arguments, or stats on a result file, said "no line '0' ending the
    # clause list" (the DP reader's words): audit 21-B #5
    path = tmp_path / "answer.txt"
    path.write_text(text)
    with pytest.raises(FormatError) as caught:
        read_formula(str(path))
    assert caught.value.message.startswith("this is a solver's answer (s/v lines or a MiniSat")
    assert caught.value.line == line
    with pytest.raises(FormatError, match="this is a solver's answer"):
        read_dimacs_or_dp(str(path))


def test_a_maze_file_given_as_a_cnf_is_named(tmp_path):
    # convert/stats/dp said "no line '0' ending the clause list", solve "found 'START'"
    # (audit 22-C #4)
    path = tmp_path / "maze.txt"
    path.write_text("START A B\nGOLD\n2\nSTART TREASURES NEXT A\nA TREASURES GOLD NEXT B\n")
    for read in (lambda: read_formula(str(path)), lambda: read_dimacs_or_dp(str(path))):
        with pytest.raises(FormatError) as caught:
            read()
        assert caught.value.line == 1 and "this is a maze file, not a" in caught.value.message
    with pytest.raises(FormatError, match="this is a maze file, not a CNF: satkit maze solve"):
        parse_dimacs("START A B\n")
    with pytest.raises(FormatError, match="expected a literal or 0, found 'START'"):
        parse_dimacs("p cnf 1 1\nSTART A\n")  # (after a header: a CNF with a stray line)
    # a back end's walk alone in its file is named as one (review 22 #3); a maze whose node
    # list names a node twice (wrong, but a maze) is still a maze file (review 22b #3)
    walk = "this is a back end's answer (one line: a walk from START), not a CNF"
    path = tmp_path / "walk.txt"
    for text, line, message in (("\nSTART C G H\n", 2, walk), ("START A START B", 1, walk),
                                ("START A B A\nGOLD\n1\n", 1, "this is a maze file"),
                                ("A START B A\nGOLD\n1\n", 1, "this is a maze file")):  # fmt: skip
        path.write_text(text)
        with pytest.raises(FormatError) as caught:
            read_dimacs_or_dp(str(path))
        assert caught.value.line == line and caught.value.message.startswith(message), text


def test_a_real_empty_clause_is_kept():
    formula = parse_dimacs("p cnf 2 3\n1 2 0\n0\n-1 0\n", strict=True)
    assert formula.clauses == [[1, 2], [], [-1]]
    assert parse_dimacs("p cnf 0 2\n0 0\n").clauses == [[], []]


def test_crlf_bom_tabs_and_runs_of_blanks():
    text = "\ufeffc bom\r\np cnf 3 2\r\n\t1   -2\t0\r\n  2 \t 3 0 \r\n"
    formula = parse_dimacs(text, strict=True)
    assert formula.clauses == [[1, -2], [2, 3]]
    assert formula.comments == ["bom"]
    assert parse_dimacs(text.encode("utf-8")).clauses == [[1, -2], [2, 3]]


def test_missing_final_zero_is_a_warning_with_the_line_where_the_clause_began():
    formula = parse_dimacs("p cnf 3 2\n1 0\n\n2\n3\n", "f.cnf")
    assert formula.clauses == [[1], [2, 3]]
    assert [str(w) for w in formula.warnings] == ["f.cnf:4: last clause has no terminating 0"]
    with pytest.raises(FormatError) as info:
        parse_dimacs("p cnf 3 2\n1 0\n\n2\n3\n", "f.cnf", strict=True)
    assert str(info.value) == "f.cnf:4: last clause has no terminating 0"


def test_missing_final_zero_line_on_the_same_line_as_the_previous_clause():
    formula = parse_dimacs("p cnf 3 2\n1 0 2\n3", "f.cnf")
    assert formula.clauses == [[1], [2, 3]]
    assert [w.line for w in formula.warnings] == [2]


def test_lenient_header_mismatches_are_warnings_and_nvars_is_the_max():
    formula = parse_dimacs("p cnf 2 3\n1 -5 0\n2 0\n", "h.cnf")
    assert formula.nvars == 5
    assert formula.declared_clauses == 3
    assert sorted(str(w) for w in formula.warnings) == [
        "h.cnf:1: header declares 2 variables but literals go up to 5",
        "h.cnf:1: header declares 3 clauses but the file has 2",
    ]
    # a larger declared count is kept
    assert parse_dimacs("p cnf 9 1\n1 0\n").nvars == 9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p cnf 2 1\n1 -3 0\n", "f:2: literal -3 exceeds the declared 2 variables"),
        ("p cnf 2 1\n1 0\n\n2 7\n0\n", "f:4: literal 7 exceeds the declared 2 variables"),
        ("p cnf 9 1\n1 0\n1 0\n", "f:1: header declares 1 clause but the file has 2"),
        ("p cnf 9 3\n1 0\n", "f:1: header declares 3 clauses but the file has 1"),
        ("1 0\n", "f:1: no 'p cnf VARIABLES CLAUSES' header before the clauses"),
        ("p cnf 2 1\n1 2", "f:2: last clause has no terminating 0"),
    ],
)
def test_strict_turns_mismatches_into_errors(text, message):
    parse_dimacs(text, "f")  # lenient: accepted
    with pytest.raises(FormatError) as info:
        parse_dimacs(text, "f", strict=True)
    assert str(info.value) == message


def test_strict_literal_beyond_header_found_on_a_late_line_in_a_big_block():
    """The "any literal above the header?" shortcut must not miss one among many."""
    body = "".join(f"{i} {-(i + 1)} {i + 2} 0\n" for i in range(1, 400))
    text = f"p cnf 401 400\n{body}5 402 0\n"
    with pytest.raises(FormatError) as info:
        parse_dimacs(text, "f", strict=True)
    assert str(info.value) == "f:401: literal 402 exceeds the declared 401 variables"
    assert parse_dimacs(text, "f").nvars == 402


@pytest.mark.parametrize("declared", [1, 9, 10, 99, 100, 109, 777777, 1000000])
def test_literal_just_above_the_header_is_noticed(declared):
    """Boundary values of the digit-pattern shortcut, with many same-length literals."""
    many = " ".join(str(declared) for _ in range(100))
    text = f"p cnf {declared} 2\n{many} 0\n-{declared + 1} 0\n"
    assert parse_dimacs(text).nvars == declared + 1
    with pytest.raises(FormatError, match=f"literal -{declared + 1} exceeds"):
        parse_dimacs(text, strict=True)
    exact = f"p cnf {declared} 1\n{many} -{declared} 0\n"
    assert parse_dimacs(exact, strict=True).nvars == declared


@pytest.mark.parametrize("offset", [-2, -1, 0, 1, 2, 200])
def test_literal_above_the_header_after_n_same_length_ones(offset):
    """The first few same-length literals are compared one by one, the rest by a pattern:
    one above the header is found wherever it falls around that switch."""
    before = max(0, dimacs._ONE_BY_ONE + offset)
    same = (["-654321", "123456"] * before)[:before]
    text = f"p cnf 777777 2\n{' '.join(same)} 0\n5 777778 0\n"
    assert parse_dimacs(text).nvars == 777778
    inline = f"p cnf 777777 1\n{' '.join([*same, '-777778'])} 0\n"
    assert parse_dimacs(inline).nvars == 777778
    fine = f"p cnf 777777 1\n{' '.join([*same, '777777'])} 0\n"
    assert parse_dimacs(fine, strict=True).nvars == 777777


def test_var_comments_fill_names_and_stay_out_of_comments():
    text = "c var 1 At(START,0)\nc var 12  Has(GOLD, 3) \r\nc plain\np cnf 12 1\n1 -12 0\n"
    formula = parse_dimacs(text)
    assert formula.names == {1: "At(START,0)", 12: "Has(GOLD, 3)"}
    assert formula.comments == ["plain"]


@pytest.mark.parametrize(
    ("text", "clauses"),
    [
        (" 0\n", [[]]),  # no header: every block is scanned for its largest literal
        ("p cnf 1 2\n2 0\n\n0\n", [[2], []]),  # a literal above the count: likewise
        ("1 0  0 3 0\n", [[1], [], [3]]),
        ("p cnf 3 3\n1 2 3 0\n\n0\n", [[1, 2, 3], []]),
    ],
)
@pytest.mark.parametrize("block_size", [1, 2, 3, 5, 1 << 20])
def test_an_empty_clause_after_blanks_is_kept(text, clauses, block_size):
    # json.loads hands such an empty clause over as []: max() over it was a traceback
    with mock.patch.object(dimacs, "BLOCK_SIZE", block_size):
        assert parse_dimacs(text).clauses == clauses


def test_leading_zeros_are_numbers():
    assert parse_dimacs("p cnf 12 1\n012 -007 0\n").clauses == [[12, -7]]


def test_big_input_crossing_the_default_block_size():
    """A real (1 MiB) block boundary, with a clause cut by it."""
    clauses = [[i % 1000 + 1, -((i * 7) % 1000 + 1), (i * 13) % 1000 + 1] for i in range(120_000)]
    text = "p cnf 1000 120000\n" + "".join(
        f"{a} {b}\n{c} 0 " if i % 3 else f"{a} {b} {c} 0\n" for i, (a, b, c) in enumerate(clauses)
    )
    assert len(text) > dimacs.BLOCK_SIZE
    assert parse_dimacs(text, strict=True).clauses == clauses


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("p cnf 2 1\n1 x 0\n", 2, "found 'x'"),
        ("p cnf 2 1\n1 -0\n", 2, "'-0' is not a literal"),
        ("p cnf 2 1\n1 +2 0\n", 2, "found '+2'"),
        ("p cnf 2 1\n1 - 2 0\n", 2, "found '-'"),
        ("p cnf 2 1\n1 2 % 0\n", 2, "found '%'"),
        ("p cnf 2\n1 0\n", 1, "malformed header"),
        ("p cnf two 1\n1 0\n", 1, "malformed header"),
        ("p cnf -1 1\n1 0\n", 1, "malformed header"),
        ("p dnf 1 1\n1 0\n", 1, "malformed header"),
        ("p cnf 1 1 1\n1 0\n", 1, "malformed header"),
        ("p cnf 1 1\np cnf 1 1\n1 0\n", 2, "a second 'p cnf' header (the first is on line 1)"),
        ("", 1, "empty input"),
        ("c only\nc comments\n", 3, "empty input"),
        ("c a\n%\n0\n\n\n\n", 2, "empty input"),  # the input ends at its % line
        ("p cnf 1 1\n1 \x00 0\n", 2, "\\x00"),
        ("p cnf 1 1\n\x00\x01\x02\n", 2, "binary data"),
        ("p cnf 3 1\n1 0\n2\n99999999999999999999999 0\n", 4, "exceeds the largest variable"),
        ("p cnf 1 2\n1 0\n-2147483648 0\n", 3, "literal -2147483648 exceeds the largest"),
        ("p cnf 3 1\n1 0\n\n2 0002147483648 0\n", 4, "literal 2147483648 exceeds the largest"),
    ],
)
def test_bad_input_names_file_and_line(text, line, fragment):
    data = text.encode("latin-1") if "\xff" in text else text.encode("utf-8")
    for strict in (False, True):
        with pytest.raises(FormatError) as info:
            parse_dimacs(data, "bad.cnf", strict=strict)
        assert (info.value.file, info.value.line) == ("bad.cnf", line)
        assert fragment in info.value.message


def test_a_malformed_header_is_shown_cut_short():
    # a whole formula on the header's line was echoed into one 9 MB error line (audit 17-B #8)
    text = "p cnf 3 100000 " + "1 -2 0 " * 100000 + "\n"
    with pytest.raises(FormatError) as info:
        parse_dimacs(text.encode(), "one-line.cnf")
    assert info.value.message == (
        "malformed header 'p cnf 3 100000 1 -2 0 1 -2 0 1 -2 0 1 -2 0 1 -2 0 1 -2 0 1 -…' "
        "(expected 'p cnf VARIABLES CLAUSES')"
    )


def test_read_dimacs_detects_compression_by_magic_bytes_not_by_name(tmp_path):
    text = b"c hi\np cnf 3 2\n1 -2 0\n2 3 0\n%\n0\n"
    for name, data in [
        ("gz-named.cnf", gzip.compress(text)),
        ("bz2-named.txt", bz2.compress(text)),
        ("xz-named.gz", lzma.compress(text)),
        ("plain-named.xz", text),
    ]:
        path = tmp_path / name
        path.write_bytes(data)
        formula = read_dimacs(path, strict=True)
        assert formula.clauses == [[1, -2], [2, 3]], name
        assert formula.comments == ["hi"]


def test_read_dimacs_compressed_bom_and_crlf(tmp_path):
    path = tmp_path / "x.cnf.gz"
    path.write_bytes(gzip.compress("\ufeffp cnf 2 1\r\n1 -2 0\r\n".encode()))
    assert read_dimacs(path, strict=True).clauses == [[1, -2]]


def test_read_dimacs_truncated_compressed_input_is_an_error(tmp_path):
    text = "p cnf 3 1000\n" + "1 -2 3 0\n" * 1000
    for name, compress in [
        ("t.gz", gzip.compress),
        ("t.xz", lzma.compress),
        ("t.bz2", bz2.compress),
    ]:
        path = tmp_path / name
        data = compress(text.encode())
        path.write_bytes(data[: len(data) // 2])
        with pytest.raises(FormatError) as info:
            read_dimacs(path)
        assert info.value.file == str(path)
        assert "truncated or corrupt" in info.value.message


def test_read_dimacs_missing_file_and_directory(tmp_path):
    with pytest.raises(FormatError, match="no such file"):
        read_dimacs(tmp_path / "absent.cnf")
    with pytest.raises(FormatError, match="is a directory"):
        read_dimacs(tmp_path)


# -- PySAT conversion ---------------------------------------------------------------------


def test_to_pysat_and_back():
    formula = parse_dimacs("c note\np cnf 5 3\n1 -2 0\n0\n3 0\n")
    cnf = formula.to_pysat()
    assert isinstance(cnf, CNF)
    assert (cnf.nv, cnf.clauses, cnf.comments) == (5, [[1, -2], [], [3]], ["c note"])
    cnf.clauses[0].append(4)  # a copy: the formula is not changed through it
    assert formula.clauses[0] == [1, -2]
    back = Formula.from_pysat(CNF(from_clauses=[[1, -7], [2]]))
    assert (back.nvars, back.clauses) == (7, [[1, -7], [2]])
    again = Formula.from_pysat(cnf)
    assert (again.nvars, again.comments) == (5, ["note"])


def test_pysat_reads_what_we_write(tmp_path):
    formula = Formula(nvars=6, clauses=[[1, -2, 3], [-6], [2, 4]], names={1: "a"})
    path = tmp_path / "w.cnf"
    write_dimacs(formula, path)
    cnf = CNF(from_file=str(path))
    assert (cnf.nv, cnf.clauses) == (6, formula.clauses)


# -- the writer ---------------------------------------------------------------------------


def test_writer_header_from_content_one_clause_per_line_names_as_comments():
    formula = Formula(nvars=2, clauses=[[1, -5], [], [3]], comments=["hello"], names={2: "At(A,0)"})
    assert dimacs_text(formula) == "c hello\nc var 2 At(A,0)\np cnf 5 3\n1 -5 0\n0\n3 0\n"
    assert dimacs_text(Formula(nvars=9, clauses=[[1]])) == "p cnf 9 1\n1 0\n"
    assert dimacs_text(Formula()) == "p cnf 0 0\n"


names_strategy = st.dictionaries(
    st.integers(1, 40),
    st.text(
        alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Z")),
        min_size=1,
        max_size=10,
    ),
    max_size=5,
)


@settings(max_examples=150, deadline=None)
@given(
    clause_lists,
    st.integers(0, 200),
    st.lists(comment_texts.map(str.rstrip).filter(lambda s: "\r" not in s), max_size=3),
    names_strategy,
    st.one_of(st.none(), st.text(max_size=40).filter(bool)),
)
def test_round_trip_parse_of_write(clauses, nvars, comments, names, back_matter):
    formula = Formula(
        nvars=nvars, clauses=clauses, comments=comments, names=names, back_matter=back_matter
    )
    again = parse_dimacs(dimacs_text(formula), strict=True)
    assert again.clauses == formula.clauses
    assert again.nvars == max(nvars, formula.max_var)
    assert again.comments == formula.comments
    assert again.names == formula.names
    assert again.back_matter == formula.back_matter
    assert again.warnings == []


def test_write_dimacs_streams_many_clauses_in_chunks(tmp_path):
    clauses = [[i, -(i + 1)] for i in range(1, 20_001)]
    path = tmp_path / "big.cnf"
    write_dimacs(Formula(clauses=clauses), path)
    assert read_dimacs(path, strict=True).clauses == clauses
    assert path.read_text().count("\n") == 20_001


def test_write_failure_mid_way_leaves_no_file_and_no_temp_file(tmp_path, monkeypatch):
    real_lines = dimacs.dimacs_lines

    def breaking(formula, **options):
        for count, line in enumerate(real_lines(formula, **options)):
            if count == 15_000:  # after the first 8192-line chunk reached the disk
                raise RuntimeError("disk on fire")
            yield line

    monkeypatch.setattr(dimacs, "dimacs_lines", breaking)
    target = tmp_path / "out.cnf"
    with pytest.raises(RuntimeError):
        write_dimacs(Formula(clauses=[[i] for i in range(1, 20_000)]), target)
    assert os.listdir(tmp_path) == []
    target.write_text("keep me\n")
    with pytest.raises(RuntimeError):
        write_dimacs(Formula(clauses=[[i] for i in range(1, 20_000)]), target)
    assert target.read_text() == "keep me\n"
    assert os.listdir(tmp_path) == ["out.cnf"]


def test_write_refuses_to_overwrite_its_input(tmp_path):
    source = tmp_path / "in.cnf"
    source.write_text("p cnf 1 1\n1 0\n")
    formula = read_dimacs(source)
    with pytest.raises(FormatError, match="refusing to overwrite the input file"):
        write_dimacs(formula, source, inputs=[source])
    link = tmp_path / "link.cnf"
    link.symlink_to(source)
    with pytest.raises(FormatError, match="refusing to overwrite"):
        write_dimacs(formula, link, inputs=[source])
    assert source.read_text() == "p cnf 1 1\n1 0\n"
    assert sorted(os.listdir(tmp_path)) == ["in.cnf", "link.cnf"]


def test_write_dimacs_replaces_an_existing_output(tmp_path):
    target = tmp_path / "out.cnf"
    target.write_text("old\n")
    write_dimacs(Formula(clauses=[[1, 2]]), target)
    assert target.read_text() == "p cnf 2 1\n1 2 0\n"


def test_block_size_setting_is_honoured_by_both_readers(tmp_path):
    """The block tests above only mean something if small blocks really are used."""
    text = "p cnf 3 3\n1 -2 0\nc between\n2 3 0\n-3 0\n"
    path = tmp_path / "b.cnf"
    path.write_text(text)
    starts: list[int] = []
    real_feed = dimacs._Reader.feed

    def spy(self, block, first_line):
        starts.append(first_line)
        return real_feed(self, block, first_line)

    with mock.patch.object(dimacs, "BLOCK_SIZE", 4), mock.patch.object(dimacs._Reader, "feed", spy):
        assert parse_dimacs(text).clauses == [[1, -2], [2, 3], [-3]]
        assert starts == [1, 2, 3, 4, 5]
        starts.clear()
        assert read_dimacs(path).clauses == [[1, -2], [2, 3], [-3]]
        assert starts == [1, 2, 3, 4, 5]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 10**7).flatmap(
        lambda declared: st.tuples(
            st.just(declared),
            st.lists(
                st.integers(max(1, declared - 3), declared + 2).flatmap(
                    lambda v: st.sampled_from([v, -v])
                )
                | st.integers(1, declared),
                min_size=1,
                max_size=150,
            ),
        )
    )
)
def test_literals_near_the_declared_count(case):
    """Strict rejects exactly the files with a literal above the header, whichever shortcut
    (few or many literals as long as the count) the reader takes."""
    declared, literals = case
    text = f"p cnf {declared} 1\n" + " ".join(map(str, literals)) + " 0\n"
    high = max(map(abs, literals))
    assert parse_dimacs(text).nvars == max(declared, high)
    if high > declared:
        with pytest.raises(FormatError, match="exceeds the declared"):
            parse_dimacs(text, strict=True)
    else:
        assert parse_dimacs(text, strict=True).clauses == [literals]


def test_someone_elses_back_matter_comment_is_an_ordinary_comment():
    formula = parse_dimacs('c back-matter of the maze\nc back-matter "x\\n"\np cnf 1 1\n1 0\n')
    assert formula.comments == ["back-matter of the maze"]
    assert formula.back_matter == "x\n"


def test_a_back_matter_comment_nested_too_deeply_is_an_ordinary_comment():
    # json.loads raises RecursionError, not ValueError, on deep nesting (audit 16-B)
    deep = "[" * 100_000 + "]" * 100_000
    formula = parse_dimacs(f"p cnf 1 1\n1 0\nc back-matter {deep}\n")
    assert formula.clauses == [[1]] and formula.back_matter is None
    assert formula.comments == [f"back-matter {deep}"]


def test_absurd_variable_count_in_header_is_an_error():
    with pytest.raises(FormatError) as info:
        parse_dimacs("p cnf 99999999999999999999 1\n1 0\n", "big.cnf")
    assert str(info.value) == "big.cnf:1: header declares more than 2147483647 variables"


# -- audit fixes: literals above MAX_VARIABLES, comments that are not UTF-8 -----------------

HUGE = "literal 99999999999999999999999 exceeds the largest variable number 2147483647"


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("p cnf 3 1\n99999999999999999999999 0\n", 2, HUGE),
        ("p cnf 3 2\nc x\n1 2 0\n-3 99999999999999999999999 0\n", 4, HUGE),
        ("p cnf 3 1\n1 2\n 0099999999999999999999999 0\n", 3, HUGE),  # the token loop
        ("p cnf 3 1\n1 -2147483648 0\n", 2, "literal -2147483648 exceeds the largest variable "
         "number 2147483647"),
        ("p cnf 3 1\n1 -" + "8" * 5000 + " 0\n", 2, "literal -" + "8" * 30 + "… (5000 digits) "
         "exceeds the largest variable number 2147483647"),  # more digits than int() takes
    ],
)
def test_a_literal_above_max_variables_is_an_error_in_both_modes(text, line, message, strict):
    with pytest.raises(FormatError) as info:
        parse_dimacs(text, "huge.cnf", strict=strict)
    assert (info.value.file, info.value.line, info.value.message) == ("huge.cnf", line, message)


@pytest.mark.parametrize("strict", [False, True])
def test_a_huge_literal_in_a_file_is_found_on_its_line(tmp_path, strict):
    path = tmp_path / "h.cnf"
    body = "".join(f"{i} -{i + 1} 0\n" for i in range(1, 30_000))
    path.write_text("p cnf 30000 30000\n" + body + "5 99999999999999999999999 0\n")
    with pytest.raises(FormatError) as info:
        read_dimacs(path, strict=strict)
    assert (info.value.line, info.value.message) == (30_001, HUGE)


def test_without_a_header_a_huge_literal_is_an_error_too():
    with pytest.raises(FormatError) as info:
        parse_dimacs("1 2 0\n\n99999999999999999999999 0\n", "n.cnf")
    assert (info.value.line, info.value.message) == (3, HUGE)


def test_the_largest_variable_number_itself_is_a_literal():
    formula = parse_dimacs("1 -2147483647 0\n")
    assert (formula.nvars, formula.clauses) == (2147483647, [[1, -2147483647]])
    # leading zeros that int() cannot convert at once still name a small variable
    assert parse_dimacs("p cnf 3 1\n" + "0" * 5000 + "3 0\n").clauses == [[3]]


def test_in_strict_mode_the_first_literal_too_large_is_named():
    text = "p cnf 3 2\n1 0\n2 -5 0\n-99999999999999999999999 0\n"
    with pytest.raises(FormatError) as info:
        parse_dimacs(text, "s.cnf", strict=True)
    assert (info.value.line, info.value.message) == (
        3, "literal -5 exceeds the declared 3 variables"
    )
    with pytest.raises(FormatError) as info:
        parse_dimacs(text, "s.cnf")
    assert (info.value.line, info.value.message) == (4, "literal -" + HUGE[len("literal ") :])


def test_huge_numbers_in_headers_and_name_comments():
    with pytest.raises(FormatError) as info:
        parse_dimacs("p cnf " + "9" * 5000 + " 1\n1 0\n")
    assert (info.value.line, info.value.message) == (
        1, "header declares more than 2147483647 variables"
    )
    with pytest.raises(FormatError) as info:
        parse_dimacs("p cnf 3 " + "9" * 5000 + "\n1 0\n")
    assert info.value.line == 1
    # a name for a variable no solver can have is an ordinary comment
    formula = parse_dimacs("c var 99999999999999999999999 x\nc var 2 y\np cnf 3 1\n1 0\n")
    assert formula.names == {2: "y"}
    assert formula.comments == ["var 99999999999999999999999 x"]


def test_a_non_utf8_comment_is_kept_with_a_warning_unless_strict():
    data = b"c caf\xe9\np cnf 1 1\nc ok\n1 0\nc \xff\xfe end\n"
    formula = parse_dimacs(data, "l.cnf")
    assert formula.clauses == [[1]]
    assert formula.comments == ["caf\ufffd", "ok", "\ufffd\ufffd end"]
    assert [(w.file, w.line, w.message) for w in formula.warnings] == [
        ("l.cnf", 1, "comment is not UTF-8 text; undecodable bytes replaced"),
        ("l.cnf", 5, "comment is not UTF-8 text; undecodable bytes replaced"),
    ]
    with pytest.raises(FormatError) as info:
        parse_dimacs(data, "l.cnf", strict=True)
    assert (info.value.line, info.value.message) == (1, "comment is not UTF-8 text")


def test_names_and_back_matter_with_bytes_that_are_not_utf8(tmp_path):
    data = b'c var 1 caf\xe9\nc back-matter "k\xff"\np cnf 1 1\n1 0\n'
    path = tmp_path / "n.cnf"
    path.write_bytes(data)
    formula = read_dimacs(path)
    assert formula.names == {1: "caf\ufffd"}
    assert formula.back_matter == "k\ufffd"
    assert [w.line for w in formula.warnings] == [1, 2]
    with pytest.raises(FormatError) as info:
        read_dimacs(path, strict=True)
    assert info.value.line == 1


def test_reading_leaves_the_collector_as_it_was():
    """The reader pauses the collector and files its lists with the long-lived objects,
    but restores the collector's state and never releases a program's frozen objects."""
    import gc

    text = "p cnf 3 2\n1 -2 0\n2 3 0\n"
    assert gc.isenabled()
    frozen = gc.get_freeze_count()  # (Python 3.12.1 starts with 375 frozen objects)
    assert parse_dimacs(text).clauses == [[1, -2], [2, 3]]
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    gc.disable()
    try:
        parse_dimacs(text)
        assert not gc.isenabled()
    finally:
        gc.enable()
    kept = [object() for _ in range(10)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        parse_dimacs(text)
        assert gc.get_freeze_count() == frozen and gc.isenabled()
    finally:
        gc.unfreeze()
    del kept


def test_a_comment_with_line_breaks_stays_comments():
    # a maze file named "two\nlines.txt" made `maze encode --to dimacs` write a second line
    # that no reader (ours, minisat, cadical, picosat) takes
    assert dimacs.comment_lines("a\r\nb\rc\nd") == ["c a\n", "c b\n", "c c\n", "c d\n"]
    assert dimacs.comment_lines("") == ["c\n"]
    formula = Formula(nvars=1, clauses=[[1]], comments=["maze two\nlines.txt: 2 nodes", "x\ry"])
    again = parse_dimacs(dimacs_text(formula), strict=True)
    assert again.clauses == [[1]]
    assert again.comments == ["maze two", "lines.txt: 2 nodes", "x", "y"]


@pytest.mark.parametrize("name", ["Drink(1,Juice\n-49 0\nc)", "a\rb", "", "  "])
def test_a_name_that_cannot_be_one_line_is_refused(name):
    # a zebra value holding "\n-49 0\n" used to add a clause to the `puzzle --cnf` export
    formula = Formula(nvars=2, clauses=[[1, 2]], names={1: "fine name", 2: name})
    with pytest.raises(ValueError, match=r"variable 2's name .* cannot be one 'c var' line"):
        dimacs_text(formula)
    formula.names[2] = "x(1, y)"
    again = parse_dimacs(dimacs_text(formula), strict=True)
    assert again.names == {1: "fine name", 2: "x(1, y)"} and again.clauses == [[1, 2]]


@pytest.mark.parametrize("block_size", [1, 3, 1 << 20])
def test_a_file_with_cr_line_ends_reads_as_lines(block_size):
    # minisat and picosat read such files; the header used to swallow the whole file
    text = b"c made on a Mac\rp cnf 2 2\r1 0\r-1 2 0\r"
    with mock.patch.object(dimacs, "BLOCK_SIZE", block_size):
        formula = parse_dimacs(text, strict=True)
    assert formula.clauses == [[1], [-1, 2]] and formula.comments == ["made on a Mac"]
    with pytest.raises(FormatError) as info:
        parse_dimacs(b"p cnf 1 1\r1 0\rx\r")
    assert info.value.line == 3
    # with LF lines about, a CR stays a blank (CRLF files)
    assert parse_dimacs(b"p cnf 2 2\r\n1 0\r-1 2 0\n").clauses == [[1], [-1, 2]]


def test_a_file_with_cr_line_ends_streams_in_blocks_like_any_other(tmp_path):
    # it used to arrive as one block, copied again for every MiB read (quadratic time)
    path = tmp_path / "mac.cnf"
    path.write_bytes(b"p cnf 3 3\r1 2 0\r-1 3 0\r0\r")
    blocks = list(dimacs.iter_byte_blocks(path, 4))
    assert blocks == [(b"p cnf 3 3\n", 1), (b"1 2 0\n", 2), (b"-1 3 0\n0\n", 3)]
    assert read_dimacs(path).clauses == [[1, 2], [-1, 3], []]
    assert dimacs.clause_line(path, 3) == 4  # what convert names for the empty clause


def test_a_name_given_twice_and_a_broken_back_matter_line_are_warned_about():
    # `convert` to the DP format kept the last name and dropped the bad line without a word
    text = 'c var 1 A\nc var 1 A\nc var 1 B\nc back-matter "abc\np cnf 2 1\n1 2 0\n'
    formula = parse_dimacs(text, "d.cnf")
    assert formula.names == {1: "B"} and formula.back_matter is None
    assert [str(w) for w in formula.warnings] == [
        "d.cnf:3: variable 1 is named again: 'B' replaces 'A'",
        "d.cnf:4: a 'c back-matter' line that is not one JSON string: read as a plain comment,"
        " not as back matter",
    ]
    assert formula.comments == ['back-matter "abc']


def test_names_the_reader_gives_are_names_the_writer_takes():
    # a form feed or U+2028 in a name was read silently, then `convert --to dimacs` died on
    # it with a traceback; DIMACS readers end lines at LF only, so such names go back as
    # they are, and a CR inside a `c var` line (which kissat refuses) is no name
    text = "c x\nc var 1 A\x0cB\nc var 2 X\u2028Y\nc var 3 P\rQ\np cnf 3 1\n1 2 3 0\n"
    formula = parse_dimacs(text, "n.cnf")
    assert formula.names == {1: "A\x0cB", 2: "X\u2028Y"}
    assert [str(w) for w in formula.warnings] == [
        "n.cnf:4: a 'c var' name holding a carriage return: read as a plain comment"
    ]
    again = parse_dimacs(dimacs_text(formula), "again.cnf")
    assert again.clauses == [[1, 2, 3]]
    # (the plain comment is written as two lines at its CR, as every comment is)
    assert again.names == {**formula.names, 3: "P"} and "Q" in again.comments


@pytest.mark.parametrize(
    ("clauses", "message"),
    [
        ([[1, 2, 0], [-1, 0]], "clause 1 holds the literal 0"),  # DIMACS-style lists
        ([[3], [0], [4]], "clause 2 holds the literal 0"),  # the DP format's separator
        ([[1], [2**31]], "clause 2 holds variable 2147483648, more than 2147483647"),
        ([[True, 2]], "clause 1 holds True, not an int literal"),
        ([[2.0]], "clause 1 holds 2.0, not an int literal"),
    ],
)
def test_writers_refuse_literals_no_file_can_hold(tmp_path, clauses, message):
    # `1 2 0 0` was written for [1, 2, 0] and read back as an UNSAT formula with empty
    # clauses; as DP input a [0] ended the clause list there (audit 19-C #3)
    from formats.assignment import dp_input_text, write_dp_input

    formula = Formula(nvars=3, clauses=clauses)
    target = tmp_path / "out.cnf"
    target.write_text("old\n")
    for write in (write_dimacs, write_dp_input):
        with pytest.raises(ValueError, match=message):
            write(formula, target)
        assert target.read_text() == "old\n" and os.listdir(tmp_path) == ["out.cnf"]
    for text in (dimacs_text, dp_input_text):
        with pytest.raises(ValueError, match=message):
            text(formula)


def test_writers_take_int_like_literals():
    numpy = pytest.importorskip("numpy")
    formula = Formula(clauses=[[numpy.int64(3), -1]])
    assert dimacs_text(formula) == "p cnf 3 1\n3 -1 0\n"


def test_answer_writers_refuse_a_model_with_a_zero():
    from formats.results import SolverResult, competition_text, minisat_result_text

    for text in (competition_text, minisat_result_text):
        with pytest.raises(ValueError, match="the model holds the literal 0"):
            text(SolverResult("SAT", [1, 0, -2]))


def test_writers_refuse_a_declared_count_no_file_can_hold(tmp_path):
    # the literals were checked, the declared count was not: `p cnf 2147483648 1` came out,
    # which satkit's own reader refuses (review 19 #8)
    with pytest.raises(ValueError, match="2147483648 variables declared, more than"):
        dimacs_text(Formula(nvars=2**31, clauses=[[1]]))
    assert dimacs_text(Formula(nvars=2**31 - 1, clauses=[[1]])).startswith("p cnf 2147483647 1")


def test_convert_skips_the_literal_check_its_reader_made(tmp_path, monkeypatch):
    # the check cost a sixth of a 1M-clause conversion (review 19 #4): formulas satkit's own
    # readers made are written without it
    import formats.assignment
    import formats.dimacs
    from satkit import main

    def no_check(clauses):
        raise AssertionError("checked again")

    monkeypatch.setattr(formats.dimacs, "checked_max_var", no_check)
    monkeypatch.setattr(formats.assignment, "checked_max_var", no_check)
    source = tmp_path / "in.cnf"
    source.write_text("p cnf 3 2\n1 -2 0\n3 0\n")
    from click.testing import CliRunner

    for target in ("dimacs", "assignment"):
        out = tmp_path / f"out.{target}"
        done = CliRunner().invoke(main, ["convert", str(source), "--to", target, "-o", str(out)])
        assert done.exit_code == 0, done.output


@pytest.mark.parametrize("text", ["c \udce9\np cnf 1 1\n1 0\n", "c \ud800\np cnf 1 1\n1 0\n"])
def test_a_string_holding_a_lone_surrogate_is_the_non_utf8_case(text):
    # text decoded by satkit's own readers keeps a bad byte as a lone surrogate:
    # parse_dimacs(str) raised UnicodeEncodeError, not FormatError (audit 19-C #6 / review 19)
    formula = parse_dimacs(text)
    assert formula.clauses == [[1]]
    assert [w.message for w in formula.warnings] == [
        "comment is not UTF-8 text; undecodable bytes replaced"
    ]
    with pytest.raises(FormatError, match="comment is not UTF-8 text"):
        parse_dimacs(text, strict=True)


def test_a_reader_that_keeps_no_comments_still_reads_names_and_checks_comments():
    from formats.dimacs import parse_dimacs_blocks

    text = b'c hello\np cnf 2 1\nc var 1 alpha\nc back-matter "end"\n1 -2 0\n'
    formula = parse_dimacs_blocks([(text, 1)], "f.cnf", keep_comments=False)
    assert formula.comments == [] and formula.clauses == [[1, -2]]
    assert formula.names == {1: "alpha"} and formula.back_matter == "end"
    assert parse_dimacs_blocks([(text, 1)], "f.cnf").comments == ["hello"]
    with pytest.raises(FormatError) as info:
        parse_dimacs_blocks([(b"c \xff\n", 1)], "f.cnf", strict=True, keep_comments=False)
    assert str(info.value) == "f.cnf:1: comment is not UTF-8 text"


@pytest.mark.parametrize("body", [b"1 2\xe9 0\n", b"1 \xe9 0\n", b"\xe9\n"])
def test_a_byte_that_is_not_utf8_among_the_clauses_is_named_not_shown(body):
    # it was shown as U+FFFD ("found '2\ufffd'"), which is not in the file (review 26 #5)
    with pytest.raises(FormatError) as caught:
        parse_dimacs(b"p cnf 2 1\n" + body, "bad.cnf")
    assert str(caught.value) == "bad.cnf:2: not UTF-8 text (byte 0xe9)"


@pytest.mark.parametrize("header", [b"p cnf 2 1\xe9\n", b"p cnf 2\xe9 1\n", b"p\xe9 cnf 2 1\n"])
def test_a_header_byte_that_is_not_utf8_is_named_not_shown(header):
    # the header was decoded as ASCII with U+FFFD for each such byte (review 26-B #3)
    with pytest.raises(FormatError) as caught:
        parse_dimacs(header + b"1 2 0\n", "bad.cnf")
    assert str(caught.value) == "bad.cnf:1: malformed header: not UTF-8 text (byte 0xe9)"


def test_a_header_of_digits_that_are_not_ascii_is_malformed_and_shown_as_written():
    # read as UTF-8, so 'p cnf ２ 1' shows its own digit; str.isdigit would take it as 2
    with pytest.raises(FormatError) as caught:
        parse_dimacs("p cnf ２ 1\n1 2 0\n".encode(), "wide.cnf")
    assert str(caught.value) == (
        "wide.cnf:1: malformed header 'p cnf ２ 1' (expected 'p cnf VARIABLES CLAUSES')"
    )


def test_a_trailer_line_that_is_not_utf8_names_its_byte():
    text = b"p cnf 2 1\n1 2 0\n%\n0\n\xe9x\n"
    formula = parse_dimacs(text, "t.cnf")
    assert formula.clauses == [[1, 2]]
    assert [str(w) for w in formula.warnings] == [
        "t.cnf:5: a line that is not UTF-8 text (byte 0xe9) after the '%' line that ends the"
        " input (line 3) is ignored (SATLIB puts only '0' there)"
    ]
    with pytest.raises(FormatError) as caught:
        parse_dimacs(text, "t.cnf", strict=True)
    assert "t.cnf:5: a line that is not UTF-8 text (byte 0xe9) after" in str(caught.value)


def test_a_name_for_variable_zero_is_a_plain_comment_with_a_warning():
    # `c var 0 NAME` named a variable that does not exist, and became a DP key line
    # `0 NAME` (audit 27-D, a note)
    formula = parse_dimacs(b"c var 0 zero\nc var 00 nil\nc var 1 one\np cnf 1 1\n1 0\n", "v.cnf")
    assert formula.names == {1: "one"}
    assert formula.comments == ["var 0 zero", "var 00 nil"]
    assert [str(w) for w in formula.warnings] == [
        f"v.cnf:{line}: a 'c var 0' name: there is no variable 0; read as a plain comment"
        for line in (1, 2)
    ]


def test_a_malformed_header_is_shown_with_its_unicode_blanks():
    # str.strip() took the no-break space away, and the message showed 'p cnf 2 1', which
    # looks valid (review 27 #3)
    with pytest.raises(FormatError) as caught:
        parse_dimacs("p cnf 2 1\u00a0\n1 2 0\n".encode(), "nb.cnf")
    assert str(caught.value) == (
        "nb.cnf:1: malformed header 'p cnf 2 1\\xa0' (expected 'p cnf VARIABLES CLAUSES')"
    )
