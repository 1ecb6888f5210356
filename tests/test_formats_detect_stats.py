"""formats.detect (DIMACS or DP input?) and formats.statistics (what `satkit stats` counts)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosscheck.instances import load_instance
from formats import FormatError, Formula
from formats.assignment import dp_input_text
from formats.detect import detect_format, named_dimacs, read_dimacs_or_dp, read_formula
from formats.dimacs import dimacs_text
from formats.statistics import formula_stats


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("c comment\n1 2\n0\n", "dimacs"),
        ("p cnf 2 1\n1 2 0\n", "dimacs"),
        ("%\n", "dimacs"),
        ("\n\n  1 -2 0\n", "dimacs"),
        ("\ufeff1 -2 0\n", "dimacs"),
        ("", "dimacs"),
        ("  \n\t\n", "dimacs"),
        ("1 -2\n0\nkey\n", "assignment"),
        ("\ufeff  1  -2 \r\n0\r\n", "assignment"),
        ("0\n1 P\n", "assignment"),
        ("0 \n", "assignment"),
        ("\n\n-3\n0\n", "assignment"),
        ("-4 -1 5 00\n4 0\n", "assignment"),  # DP input's DIMACS-style end (but see below)
        ("1 2 0c\n-1\n", "dimacs"),  # a comment glued to the 0, as the DIMACS reader takes it
    ],
)
def test_detect_format(text, kind):
    assert detect_format(text) == kind
    assert detect_format(text.encode("utf-8")) == kind


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(-50, 50).filter(bool), min_size=1, max_size=5),
        min_size=1,
        max_size=10,
    ),
    st.text(max_size=20),
)
def test_what_satkit_writes_is_detected_as_what_it_is(clauses, back_matter):
    formula = Formula(clauses=clauses, back_matter=back_matter)
    assert detect_format(dimacs_text(formula)) == "dimacs"
    assert detect_format(dp_input_text(formula)) == "assignment"


def test_read_formula_detects_or_obeys(tmp_path):
    dp = tmp_path / "dp.txt"
    dp.write_text("1 -2\n0\nkey\n")
    formula, kind = read_formula(dp)
    assert (kind, formula.clauses, formula.back_matter) == ("assignment", [[1, -2]], "key\n")
    cnf = tmp_path / "x.cnf"
    cnf.write_bytes(gzip.compress(b"p cnf 2 1\n1 -2 0\n"))
    formula, kind = read_formula(cnf)
    assert (kind, formula.clauses) == ("dimacs", [[1, -2]])
    # a headerless file: DIMACS when named .cnf, else judged by its first line (or on request)
    bare = tmp_path / "bare.txt"
    bare.write_text("1 -2\n0\n")
    assert read_formula(bare)[1] == "assignment"
    formula, kind = read_formula(bare, fmt="dimacs")
    assert (kind, formula.clauses) == ("dimacs", [[1, -2]])
    with pytest.raises(FormatError, match="no 'p cnf"):
        read_formula(bare, fmt="dimacs", strict=True)
    with pytest.raises(ValueError, match="unknown format"):
        read_formula(bare, fmt="json")


@pytest.mark.parametrize(
    "name", ["x.cnf", "X.CNF", "x.dimacs", "x.cnf.gz", "x.cnf.xz", "x.dimacs.bz2"]
)
def test_a_file_named_cnf_is_dimacs_whatever_its_first_line(tmp_path, name):
    # clauses wrapped over lines, no header: the first line has no final 0, which by
    # itself looks like the DP format (where `0` would end the clause list)
    text = b"1 2\n0\n-1\n0\n-2\n0\n"
    path = tmp_path / name
    compress = {".gz": gzip.compress, ".xz": lzma.compress, ".bz2": bz2.compress}
    path.write_bytes(compress.get(path.suffix, bytes)(text))
    formula, kind = read_formula(path)
    assert (kind, formula.clauses) == ("dimacs", [[1, 2], [-1], [-2]])
    assert named_dimacs(path) and not named_dimacs(tmp_path / "x.txt")
    assert detect_format(text, "x.txt") == "assignment"


# -- statistics ---------------------------------------------------------------------------


def test_every_count_on_a_hand_made_formula():
    formula = Formula(
        nvars=10,
        clauses=[[1, 2], [2, 1], [1, -1, 3], [], [4], [-4, 5], [1, 2, 2], [6, -7, 8]],
    )
    stats = formula_stats(formula)
    assert stats.variables == 10
    assert stats.variables_used == 8  # 1..8; 9 and 10 are declared only
    assert stats.clauses == 8
    assert stats.literals == 16
    assert stats.length_histogram == {0: 1, 1: 1, 2: 3, 3: 3}
    assert (stats.empty_clauses, stats.unit_clauses, stats.binary_clauses) == (1, 1, 3)
    # one sign only: 2 3 5 6 8 positive, 7 negative; 1 and 4 occur both ways
    assert stats.pure_literals == 6
    # [2, 1] repeats [1, 2]; [1, 2, 2] is the same set again
    assert stats.duplicate_clauses == 2
    assert stats.tautologies == 1
    assert stats.as_dict()["length_histogram"] == {"0": 1, "1": 1, "2": 3, "3": 3}


def test_stats_of_an_empty_formula():
    stats = formula_stats(Formula())
    assert stats.as_dict() == {
        "variables": 0,
        "variables_used": 0,
        "clauses": 0,
        "literals": 0,
        "length_histogram": {},
        "empty_clauses": 0,
        "unit_clauses": 0,
        "binary_clauses": 0,
        "pure_literals": 0,
        "duplicate_clauses": 0,
        "tautologies": 0,
    }


def test_stats_variables_count_literals_beyond_nvars():
    assert formula_stats(Formula(nvars=2, clauses=[[-7]])).variables == 7


def test_all_pure_and_all_mixed():
    assert formula_stats(Formula(clauses=[[1, 2], [3]])).pure_literals == 3
    assert formula_stats(Formula(clauses=[[1, -2], [-1, 2]])).pure_literals == 0
    assert formula_stats(Formula(clauses=[[1, -1], [2, -2, 3]])).tautologies == 2


LITERAL = st.one_of(st.integers(-6, 6), st.integers(-(10**6), 10**6)).filter(bool)


@settings(max_examples=300, deadline=None)
@given(
    # small numbers take the byte marks, far-apart ones the sets
    st.lists(st.lists(LITERAL, max_size=4), max_size=15),
    st.one_of(st.integers(0, 9), st.just(300_000_000)),
)
def test_stats_agree_with_a_direct_count(clauses, nvars):
    stats = formula_stats(Formula(nvars=nvars, clauses=clauses))
    assert stats.variables == max([nvars, *(abs(lit) for c in clauses for lit in c)])
    assert stats.clauses == len(clauses)
    assert stats.literals == sum(map(len, clauses))
    assert sum(stats.length_histogram.values()) == len(clauses)
    variables = {abs(lit) for clause in clauses for lit in clause}
    assert stats.variables_used == len(variables)
    signs = {v: {lit > 0 for c in clauses for lit in c if abs(lit) == v} for v in variables}
    assert stats.pure_literals == sum(len(s) == 1 for s in signs.values())
    distinct = {frozenset(c) for c in clauses}
    assert stats.duplicate_clauses == len(clauses) - len(distinct)
    assert stats.tautologies == sum(any(-lit in c for lit in c) for c in clauses)


def test_stats_work_grows_with_the_formula_not_the_header():
    # `p cnf 300000000 1` / `-1 0` took 10 s and 1.5 GB (a byte per declared variable)
    tracemalloc.start()
    try:
        stats = formula_stats(Formula(nvars=300_000_000, clauses=[[-1]]))
        far = formula_stats(Formula(nvars=3, clauses=[[-300_000_000, 2]]))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (stats.variables, stats.variables_used, stats.pure_literals) == (300_000_000, 1, 1)
    assert (far.variables, far.variables_used, far.pure_literals) == (300_000_000, 2, 2)
    assert peak < 1_000_000


@pytest.mark.parametrize(
    ("text", "clauses", "kind"),
    [
        # headerless DIMACS whose first clause spans two lines: looks like DP input, which
        # the DP reader refuses; `solve` read it as DIMACS, stats/convert/crosscheck refused
        ("1 -2\n3 0\n-1 0\n", [[1, -2, 3], [-1]], "dimacs"),
        ("1 0 2\n0\n", [[1], [2]], "dimacs"),  # `0 inside a clause line` for the DP reader
        ("-4 -1 5 00\n4 0\n", [[-4, -1, 5], [4]], "dimacs"),  # no DP input: no line `0`
        ("1 2 00 c\n-2\n0\n", [[1, 2], [-2]], "dimacs"),  # solve read it without the warning
        # a DP input whose first line ends in a DIMACS-style `00` (as `satkit dp` reads it)
        ("1 00\n-1 2\n-2\n0\n", [[1], [-1, 2], [-2]], "assignment"),
        ("1 -2\n0\nkey\n", [[1, -2]], "assignment"),
    ],
)
def test_every_reader_falls_back_to_dimacs_alike(tmp_path, text, clauses, kind):
    path = tmp_path / "in.txt"
    path.write_text(text)
    formula, read_as = read_formula(path)
    assert (formula.clauses, read_as) == (clauses, kind)
    read = read_dimacs_or_dp(path)
    assert read.clauses == clauses
    if kind == "dimacs":  # the same warnings (solve also says when it reads DP input)
        assert [str(w) for w in read.warnings] == [str(w) for w in formula.warnings]
    assert load_instance(str(path)).clauses == clauses


def test_reading_what_looks_like_dp_input_as_dimacs_says_why(tmp_path):
    # a DP input with a stray 0 became another formula, and only "no header" was said
    path = tmp_path / "typo.txt"
    path.write_text("-4 -1\n1 4 -6\n-1 0 2\n3 -2\n0\n")
    formula, kind = read_formula(path)
    assert kind == "dimacs"
    assert str(formula.warnings[0]) == (
        f"{path}:1: read as DIMACS without a header: the first line looks like the "
        "assignment's DP input, but as DP input line 3 is wrong (0 inside a clause line "
        "(only the separator line is 0))"
    )


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1 2 0\n-1 0\n0\n1 At(START,0)\n2 At(A,0)\n",
         "as DIMACS, line 4 is wrong (expected a literal or 0, found 'At(START,0)')"),
        ("1 2 0\n-1 0\n0\n", "as DIMACS, its line '0' would be an empty clause"),
    ],
)  # fmt: skip
def test_a_dp_input_whose_clause_lines_end_in_0_is_dp_input_for_every_reader(tmp_path, text, why):
    # `satkit dp` read it as DP input (SAT); convert/stats/solve as headerless DIMACS: an
    # error at the key, or an empty clause (UNSAT) from the line '0' (audit 22-C #3)
    path = tmp_path / "hybrid.txt"
    path.write_text(text)
    formula, kind = read_formula(path)
    assert (formula.clauses, kind) == ([[1, 2], [-1]], "assignment")
    assert str(formula.warnings[0]) == (
        f"{path}:1: no 'p cnf' header, and a line '0' ends the clause list: read as the "
        f"assignment's DP input, whose clause lines here end in 0 as DIMACS's do ({why}; "
        "name the file .cnf to read it as DIMACS)"
    )
    read = read_dimacs_or_dp(path)
    assert read.clauses == [[1, 2], [-1]]
    assert [str(w) for w in read.warnings] == [str(w) for w in formula.warnings]
    assert load_instance(str(path)).clauses == [[1, 2], [-1]]
    named = tmp_path / "hybrid.cnf"  # a DIMACS name keeps DIMACS
    named.write_text(text)
    if "At(" in text:
        with pytest.raises(FormatError, match="found 'At"):
            read_formula(named)
    else:
        assert read_formula(named)[0].clauses == [[1, 2], [-1], []]
    plain = tmp_path / "plain.txt"  # headerless DIMACS stays DIMACS
    plain.write_text("1 2 0\n-1 0\n")
    assert read_formula(plain)[1] == "dimacs" and read_dimacs_or_dp(plain).clauses == [[1, 2], [-1]]


def test_a_dp_input_missing_its_zero_line_is_not_one_long_clause(tmp_path):
    # as DIMACS it would be the single clause 1 2 -1 (and SAT where the DP input is not)
    path = tmp_path / "dp.txt"
    path.write_text("1 2\n-1\n-2\n")
    for read in (lambda: read_formula(path), lambda: read_dimacs_or_dp(path),
                 lambda: load_instance(str(path))):  # fmt: skip
        with pytest.raises(FormatError, match="no line '0' ending the clause list"):
            read()


_LINES = ["1 2", "-3", "0", "1 2 0", "00", "c x", "p cnf 3 2", "", " ", "%", "1 -2 0 3",
          "4 0c", "1 0 c z", "\t2\t-1", "2 00", "-0"]  # fmt: skip


def _reading(read, path):
    try:
        formula = read(path)
    except FormatError:
        return "refused"
    formula = formula[0] if isinstance(formula, tuple) else formula
    return formula.clauses, formula.nvars, formula.back_matter


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.sampled_from(_LINES), min_size=1, max_size=6),
    end=st.sampled_from(["", "\n", "\r\n"]),
)
def test_solve_reads_every_input_as_the_other_commands_do(tmp_path_factory, lines, end):
    # `satkit solve` streams (read_dimacs_or_dp decides on the first block); stats,
    # convert, dp and crosscheck read the whole text (read_formula). Blank lines and
    # then one last line without its newline came as two blocks: `\n0` was UNSAT (one
    # empty DIMACS clause) to solve and SAT (DP input, no clauses) to the rest (19-C #2)
    path = tmp_path_factory.mktemp("detect") / "in.txt"
    path.write_bytes(("\n".join(lines) + end).encode())
    assert _reading(read_dimacs_or_dp, path) == _reading(read_formula, path)


@pytest.mark.parametrize("text", ["\n0", "\n\n\n-3", "\n1 -2 0 3", " \n\t\n1 2\n0"])
def test_blank_lines_then_a_last_line_are_read_alike(tmp_path, text):
    path = tmp_path / "in.txt"
    path.write_text(text)
    assert _reading(read_dimacs_or_dp, path) == _reading(read_formula, path)


def test_a_failing_first_read_names_the_file():
    # /proc/self/mem fails its very first read (EIO): a bare OSError came out, and the
    # command blamed `<stdout>` (audit 19-C #7)
    from formats.dimacs import read_dimacs

    for read in (read_dimacs, read_dimacs_or_dp):
        with pytest.raises(FormatError, match=r"/proc/self/mem:1: cannot read: Input/output"):
            read("/proc/self/mem")
