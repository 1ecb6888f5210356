"""formats.assignment: the course's Davis–Putnam input (clauses) and output (valuation) formats."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats.assignment as assignment
from formats import FormatError, Formula
from formats.assignment import (
    DPOutput,
    dp_input_text,
    dp_output_text,
    parse_dp_input,
    parse_dp_output,
    read_dp_input,
    read_dp_output,
    write_dp_input,
    write_dp_output,
)

# -- DP input: reading ------------------------------------------------------------------------


def test_the_assignment_example():
    text = "1 2 3\n-2 3\n-3\n0\nThis is a simple example with 3 clauses and 3 atoms.\n"
    formula = parse_dp_input(text)
    assert formula.clauses == [[1, 2, 3], [-2, 3], [-3]]
    assert formula.nvars == 3
    assert formula.back_matter == "This is a simple example with 3 clauses and 3 atoms.\n"
    assert formula.warnings == []


def test_crlf_bom_trailing_blanks_and_right_aligned_numbers():
    text = "\ufeff  1  -2 \r\n 12 3 \t\r\n0 \r\n  1 At(START,0)\r\n 12 Has(GOLD,3)  \r\n"
    formula = parse_dp_input(text)
    assert formula.clauses == [[1, -2], [12, 3]]
    assert formula.nvars == 12
    assert formula.back_matter == "  1 At(START,0)\r\n 12 Has(GOLD,3)  \r\n"


IS_DIMACS = (
    "a 'p cnf' header: this is DIMACS, not the DP input format "
    "('satkit convert IN -o OUT' turns it into DP input; 'satkit solve' reads it)"
)

IS_ANSWER = (
    "this is a solver's answer (s/v lines or a MiniSat result), not a DP input: "
    "satkit maze decode ANSWER --cnf CNF reads one"
)
IS_DP_OUTPUT = "an 'n T|F' line: this is a DP output, not a DP input (satkit maze decode reads it)"


@pytest.mark.parametrize("blank", ["\f", "\v", "\x1c", "\x85", "\u2028", "\u2029"])
def test_a_line_ends_only_at_lf_crlf_or_cr(blank):
    # str.splitlines also ends a line at these: one clause would become two (SAT -> UNSAT)
    formula = parse_dp_input(f"1{blank}-1\n0{blank}\nkey{blank}x\n")
    assert formula.clauses == [[1, -1]]  # inside a line, the character is a blank
    assert formula.back_matter == f"key{blank}x\n"
    assert parse_dp_input("1 2\r0\rkey\r").back_matter == "key\r"


def test_back_matter_kept_exactly_blank_lines_free_text_and_no_final_newline():
    back = "1 P\n\n   \nfree text: 0 is just a word here\n0\n\n2 Q"
    formula = parse_dp_input("1 -2\n0\n" + back)
    assert formula.back_matter == back


def test_no_back_matter_at_all():
    formula = parse_dp_input("1 2\n-1\n0 ")
    assert formula.clauses == [[1, 2], [-1]]
    assert formula.back_matter == ""


def test_blank_lines_in_the_clause_list_are_skipped_with_a_warning():
    formula = parse_dp_input("1 2\n\n  \n-1\n0\n", "in.txt")
    assert formula.clauses == [[1, 2], [-1]]
    assert [str(w) for w in formula.warnings] == [
        "in.txt:2: blank line in the clause list ignored",
        "in.txt:3: blank line in the clause list ignored",
    ]


def test_dimacs_style_trailing_zero_is_dropped_with_a_warning():
    formula = parse_dp_input("1 2 0\n-1\n0\n", "in.txt")
    assert formula.clauses == [[1, 2], [-1]]
    assert [(w.line, w.message) for w in formula.warnings] == [
        (1, "clause line ends with 0 (DIMACS style); 0 ignored")
    ]


def test_only_a_separator_is_an_empty_formula():
    formula = parse_dp_input("0\nkey\n")
    assert (formula.clauses, formula.nvars, formula.back_matter) == ([], 0, "key\n")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("1 2\nP Q -R\n0\n", 2, "expected a signed atom number, found 'P'"),
        ("1 2\n3 x\n0\n", 2, "expected a signed atom number, found 'x'"),
        ("1 2.5\n0\n", 1, "expected a signed atom number, found '2.5'"),
        ("1_0 2\n0\n", 1, "expected a signed atom number, found '1_0'"),
        ("+1 2\n0\n", 1, "expected a signed atom number, found '+1'"),
        ("\u0661 2\n0\n", 1, "expected a signed atom number, found '\u0661'"),
        ("1 0 2\n0\n", 1, "0 inside a clause line (only the separator line is 0)"),
        ("1 2\n-0\n0\n", 2, "0 inside a clause line (only the separator line is 0)"),
        ("1 2\n00\n0\n", 2, "0 inside a clause line (only the separator line is 0)"),
        ("1 2\n-1\n", 2, "no line '0' ending the clause list"),
        ("1 2\n-1", 2, "no line '0' ending the clause list"),
        ("", 1, "no line '0' ending the clause list"),
        # no '0' line and words: the first word, not the end (audit 22-B #2)
        ("P Q\n-P\n", 1, "expected a signed atom number, found 'P'"),
        ("\n~At(START,0) At(A,0)\n", 2, "expected a signed atom number, found '~At(START,0)'"),
        ("1 2\n-1\n1 At(START,0)\n", 3,
         "no line '0' ending the clause list before this line, whose 'At(START,0)' is no atom "
         "number"),
        # DIMACS given where DP input is expected: said so, at its header
        ("p cnf 2 2\n1 2 0\n-1 0\n", 1, IS_DIMACS),
        ("c SATLIB\np cnf 2 1\n1 2 0\n%\n0\n", 2, IS_DIMACS),
        # a solver's answer or a DP output given where DP input is expected: said so
        ("s SATISFIABLE\nv 1 -2 0\n", 1, IS_ANSWER),
        ("\nv 1 -2 0\n0\nkey\n", 2, IS_ANSWER),
        ("SAT\n1 -2 0\n", 1, IS_ANSWER),
        ("UNSAT\n", 1, IS_ANSWER),
        ("1 T\n2 F\n0\n1 At(START,0)\n", 1, IS_DP_OUTPUT),
        ("START A\nGOLD\n1\nSTART TREASURES NEXT A\nA TREASURES GOLD NEXT START\n", 1,
         "this is a maze file, not a DP input: satkit maze encode turns it into one"),
        # a back end's answer was called a maze file (review 22 #3)
        ("START A START B\n", 1,
         "this is a back end's answer (one line: a walk from START), not a DP input"),
        ("\nSTART C G H\n\n", 2,
         "this is a back end's answer (one line: a walk from START), not a DP input"),
        ("0\n1 At(START,0)\n", None, None),  # (an UNSAT DP output is a valid, empty DP input)
    ],
)
def test_bad_dp_input(text, line, message):
    if message is None:
        assert parse_dp_input(text, "in.txt").clauses == []
        return
    with pytest.raises(FormatError) as info:
        parse_dp_input(text, "in.txt")
    assert (info.value.file, info.value.line, info.value.message) == ("in.txt", line, message)


def test_the_first_zero_line_ends_the_clauses_even_when_back_matter_has_more():
    formula = parse_dp_input("1\n0\n2\n0\n")
    assert formula.clauses == [[1]]
    assert formula.back_matter == "2\n0\n"


def test_read_dp_input_from_a_gzip_file_with_a_misleading_name(tmp_path):
    import gzip

    path = tmp_path / "input.txt"
    path.write_bytes(gzip.compress("\ufeff1 -2\r\n0\r\nkey\r\n".encode()))
    formula = read_dp_input(path)
    assert formula.clauses == [[1, -2]]
    assert formula.back_matter == "key\r\n"


def test_read_dp_input_invalid_utf8_and_binary(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"1 2\n0\nok\n\xff\xfe key\n")  # kept (a warning), written back as is
    formula = read_dp_input(path)
    assert formula.back_matter.encode("utf-8", "surrogateescape") == b"ok\n\xff\xfe key\n"
    assert [(w.line, w.message) for w in formula.warnings] == [
        (4, "the back matter is not UTF-8 text (byte 0xff)")
    ]
    path.write_bytes(b"1 2\n\x00\x01\n0\n")
    with pytest.raises(FormatError) as info:
        read_dp_input(path)
    assert (info.value.line, info.value.message) == (2, "binary data (NUL byte), not text")


# -- DP input: writing --------------------------------------------------------------------


def test_dp_input_text_layout():
    formula = Formula(nvars=3, clauses=[[1, 2, 3], [-2, 3], [-3]], back_matter="1 A\r\n2 B")
    assert dp_input_text(formula) == "1 2 3\n-2 3\n-3\n0\n1 A\r\n2 B"
    assert dp_input_text(Formula(clauses=[[1]])) == "1\n0\n"


def test_an_empty_clause_cannot_be_written():
    formula = Formula(nvars=2, clauses=[[1, 2], [], [-1]])
    with pytest.raises(FormatError) as info:
        dp_input_text(formula)
    assert "clause 2 is empty" in info.value.message
    assert "cannot express an empty clause" in info.value.message


def test_write_dp_input_with_an_empty_clause_creates_no_file(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(FormatError):
        write_dp_input(Formula(clauses=[[]]), target)
    assert os.listdir(tmp_path) == []


def test_write_dp_input_is_atomic_and_refuses_its_input(tmp_path, monkeypatch):
    source = tmp_path / "in.txt"
    source.write_text("1 2\n0\nkey\n")
    formula = read_dp_input(source)
    with pytest.raises(FormatError, match="refusing to overwrite the input file"):
        write_dp_input(formula, source, inputs=[source])
    assert source.read_text() == "1 2\n0\nkey\n"

    target = tmp_path / "out.txt"
    target.write_text("previous\n")

    class Exploding:
        def write(self, text):
            raise OSError(28, "No space left on device")

    real = assignment.atomic_output

    def failing_output(path, **kwargs):
        manager = real(path, **kwargs)

        class Wrapper:
            def __enter__(self):
                manager.__enter__()
                return Exploding()

            def __exit__(self, *exc):
                return manager.__exit__(*exc)

        return Wrapper()

    monkeypatch.setattr(assignment, "atomic_output", failing_output)
    with pytest.raises(OSError):
        write_dp_input(formula, target)
    assert target.read_text() == "previous\n"
    assert sorted(os.listdir(tmp_path)) == ["in.txt", "out.txt"]


atoms = st.integers(1, 300)
nonempty_clauses = st.lists(
    st.lists(atoms.flatmap(lambda a: st.sampled_from([a, -a])), min_size=1, max_size=6),
    max_size=20,
)
back_matters = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60
)


@settings(max_examples=200, deadline=None)
@given(nonempty_clauses, back_matters)
def test_dp_input_round_trip(clauses, back_matter):
    text = dp_input_text(Formula(clauses=clauses, back_matter=back_matter))
    again = parse_dp_input(text)
    assert again.clauses == clauses
    assert again.back_matter == back_matter
    assert again.warnings == []
    assert dp_input_text(again) == text


@settings(max_examples=100, deadline=None)
@given(nonempty_clauses, back_matters, st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_dp_input_reads_messy_layouts(clauses, back_matter, newline, bom):
    """Right-aligned numbers, trailing blanks, CRLF and a BOM do not change the clauses."""
    lines = [" ".join(f"{lit:>4}" for lit in clause) + "  " for clause in clauses]
    text = ("\ufeff" if bom else "") + newline.join([*lines, "0 "]) + newline + back_matter
    again = parse_dp_input(text)
    assert again.clauses == clauses
    assert again.back_matter == back_matter


# -- DP output ----------------------------------------------------------------------------


def test_dp_output_reading():
    out = parse_dp_output("1 T\n2 F\n3 F\n0\n1 P\n2 Q\n")
    assert out == DPOutput({1: True, 2: False, 3: False}, "1 P\n2 Q\n", [])
    assert out.satisfiable


def test_dp_output_atoms_in_any_order_trailing_blanks_bom_crlf_right_aligned():
    text = "\ufeff 13 F \r\n  1 T\r\n7 F  \r\n0\r\n  1 At(START,0)\r\n"
    out = parse_dp_output(text)
    assert out.valuation == {13: False, 1: True, 7: False}
    assert out.back_matter == "  1 At(START,0)\r\n"


def test_unsatisfiable_output():
    out = parse_dp_output("0\n1 P\n\n2 Q")
    assert out.valuation is None
    assert not out.satisfiable
    assert out.back_matter == "1 P\n\n2 Q"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("1 T\n6 N\n0\n", 2, "atom 6 has value 'N': every atom must be T or F"),
        ("1 T\n2 t\n0\n", 2, "atom 2 has value 't'"),
        ("1 T\n2 F\n", 2, "no line '0' after the valuation"),
        ("", 1, "no line '0' after the valuation"),
        ("NO SOLUTION\n0\nkey\n", 1, "'NO SOLUTION' is not DP output"),
        ("1 T\nNo Solution\n0\n", 2, "'NO SOLUTION' is not DP output"),
        ("1 T\n1 F\n0\n", 2, "atom 1 is given twice"),
        ("1 T 2 F\n0\n", 1, "expected 'ATOM T' or 'ATOM F', found '1 T 2 F'"),
        ("1\n0\n", 1, "expected 'ATOM T' or 'ATOM F'"),
        ("0 T\n0\n", 1, "expected 'ATOM T' or 'ATOM F'"),
        ("-1 T\n0\n", 1, "expected 'ATOM T' or 'ATOM F'"),
        ("\u00b2 T\n0\n", 1, "expected 'ATOM T' or 'ATOM F'"),
        ("x T\n0\n", 1, "expected 'ATOM T' or 'ATOM F', found 'x T'"),
    ],
)
def test_non_conforming_dp_outputs_are_reported_with_their_line(text, line, fragment):
    with pytest.raises(FormatError) as info:
        parse_dp_output(text, "out.txt")
    assert (info.value.file, info.value.line) == ("out.txt", line)
    assert fragment in info.value.message


def test_blank_lines_before_the_zero_are_warnings():
    out = parse_dp_output("1 T\n\n2 F\n0\n", "o")
    assert out.valuation == {1: True, 2: False}
    assert [str(w) for w in out.warnings] == ["o:2: blank line in the valuation ignored"]


def test_dp_output_text_layout():
    assert dp_output_text({2: True, 1: False, 4: True}, "k\n") == "1 F\n2 T\n3 F\n4 T\n0\nk\n"
    assert dp_output_text(None, "1 P\n") == "0\n1 P\n"
    assert dp_output_text(None, "") == "0\n"


def test_an_empty_valuation_reads_back_as_unsatisfiable():
    """A documented limit of the format: no atoms and UNSAT both print just `0`."""
    assert parse_dp_output(dp_output_text({}, "")).valuation is None


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(st.none(), st.dictionaries(atoms, st.booleans(), min_size=1, max_size=40)),
    back_matters,
)
def test_dp_output_round_trip(valuation, back_matter):
    text = dp_output_text(valuation, back_matter)
    out = parse_dp_output(text)
    ended = back_matter if not back_matter or back_matter.endswith(("\n", "\r")) else (
        back_matter + ("\r\n" if "\r\n" in back_matter else "\r" if "\r" in back_matter
                       else "\n"))  # (its last line is given a line end: audit 22-B #1)
    assert out.back_matter == ended
    if valuation is None:
        assert out.valuation is None
    else:
        full = {atom: valuation.get(atom, False) for atom in range(1, max(valuation) + 1)}
        assert out.valuation == full
    assert dp_output_text(out.valuation, out.back_matter) == text


def test_write_and_read_dp_output_files(tmp_path):
    path = tmp_path / "dp.out"
    write_dp_output({1: True, 2: False}, "1 A\n2 B\n", path)
    assert path.read_text() == "1 T\n2 F\n0\n1 A\n2 B\n"
    out = read_dp_output(path)
    assert (out.valuation, out.back_matter) == ({1: True, 2: False}, "1 A\n2 B\n")
    with pytest.raises(FormatError, match="refusing to overwrite"):
        write_dp_output(None, "", path, inputs=[path])
    write_dp_output(None, "1 A\r\n", path)
    assert path.read_bytes() == b"0\n1 A\r\n"
    with pytest.raises(FormatError, match="no such file"):
        read_dp_output(tmp_path / "missing.txt")


# -- audit fixes: atom numbers above MAX_VARIABLES, the empty clause's index ----------------


@pytest.mark.parametrize(
    ("text", "line", "shown"),
    [
        ("1 99999999999999999999999\n0\nback\n", 1, "99999999999999999999999"),
        ("1 2\n\n-3 -2147483648\n0\n", 3, "-2147483648"),
        ("1 2\n-" + "7" * 5000 + "\n0\n", 2, "-" + "7" * 30 + "… (5000 digits)"),
    ],
)
def test_dp_input_atoms_above_max_variables_are_errors(text, line, shown):
    with pytest.raises(FormatError) as info:
        parse_dp_input(text, "dp.txt")
    assert (info.value.file, info.value.line) == ("dp.txt", line)
    assert info.value.message == f"atom {shown} exceeds the largest variable number 2147483647"


def test_dp_input_largest_atom_and_long_leading_zeros():
    assert parse_dp_input("1 -2147483647\n0\n").nvars == 2147483647
    assert parse_dp_input("-" + "0" * 5000 + "2 1\n0\n").clauses == [[-2, 1]]


def test_dp_output_atoms_above_max_variables_are_errors():
    with pytest.raises(FormatError) as info:
        parse_dp_output("1 T\n99999999999999999999999 F\n0\nback\n", "out.txt")
    assert (info.value.line, info.value.message) == (
        2, "atom 99999999999999999999999 exceeds the largest variable number 2147483647"
    )
    with pytest.raises(FormatError) as info:
        parse_dp_output("9" * 5000 + " T\n0\n", "out.txt")
    assert info.value.line == 1
    assert parse_dp_output("2147483647 T\n0\n").valuation == {2147483647: True}
    assert parse_dp_output("0" * 5000 + "3 F\n0\n").valuation == {3: False}
    for bad in ("-2 T\n0\n", "00 T\n0\n"):
        with pytest.raises(FormatError, match="expected 'ATOM T' or 'ATOM F'"):
            parse_dp_output(bad)


def test_an_empty_clause_error_carries_the_clause_index():
    from formats.assignment import EmptyClauseError

    with pytest.raises(EmptyClauseError) as info:
        dp_input_text(Formula(clauses=[[1], [2], []]), "x.cnf")
    assert (info.value.file, info.value.line, info.value.clause) == ("x.cnf", None, 3)
    assert info.value.message.startswith("clause 3 is empty: ")


# -- the C-speed path for plain clause lines must read exactly as the line loop ----------

_TOKENS = st.one_of(
    st.integers(-40, 40).filter(bool).map(str),
    st.sampled_from(["0", "-0", "00", "01", "-", "1-2", "x", "2147483648", "99999999999"]),
)
_BLANK = st.sampled_from([" ", "  ", "\t", " \t "])


@st.composite
def dp_texts(draw: st.DrawFn) -> str:
    """DP inputs in the shapes real files take, and some they should not."""
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(["", " ", "\t"])))  # blank line
            continue
        tokens = draw(st.lists(_TOKENS, min_size=1, max_size=4))
        if draw(st.integers(0, 3)) == 0:  # mostly plain, sometimes odd ones
            tokens = [t for t in tokens if t.lstrip("-").isdigit() and t.strip("-0")] or ["1"]
        line = draw(_BLANK).join(tokens)
        if draw(st.booleans()):
            line = draw(_BLANK) + line  # right-aligned numbers
        if draw(st.integers(0, 4)) == 0:
            line += draw(_BLANK)
        lines.append(line)
    end = draw(st.sampled_from(["\n", "\n", "\r\n", "\r"]))
    separator = draw(st.sampled_from(["0", " 0", "0 ", "\t0\t"]))
    back = draw(st.sampled_from(["", "1 At(START,0)\n", "x\r\ny", "0\n0\n", "\n\n"]))
    text = "".join(line + end for line in lines) + separator
    return text + (end + back if back or draw(st.booleans()) else "")


def _read(text: str) -> tuple[object, ...]:
    try:
        formula = parse_dp_input(text, "in.dp")
    except FormatError as exc:
        return ("error", str(exc))
    return (
        formula.clauses,
        formula.nvars,
        formula.back_matter,
        formula.back_matter_line,
        [str(w) for w in formula.warnings],
    )


@settings(max_examples=400, deadline=None)
@given(dp_texts())
def test_plain_clause_lines_read_as_the_line_loop_reads_them(text: str) -> None:
    fast = _read(text)
    slow_path = assignment._plain_clauses
    assignment._plain_clauses = lambda _text: None
    try:
        slow = _read(text)
    finally:
        assignment._plain_clauses = slow_path
    assert fast == slow


def test_the_plain_path_takes_plain_files() -> None:
    text = "1 -2 3\n  12 -3\n4\t5\n0\n1 At(START,0)\n"
    clauses, high, separator, back = assignment._plain_clauses(text)
    assert (clauses, high, separator) == ([[1, -2, 3], [12, -3], [4, 5]], 12, 3)
    assert back == "1 At(START,0)\n"
    for odd in ("1 2\n\n0\n", "\n0\n", "1 0\n0\n", "1 -0\n0\n", "01 2\n0\n", "1\r\n0\r\n"):
        assert assignment._plain_clauses(odd) is None, odd


# -- bytes that are not UTF-8, and 0 written otherwise (audit 26-A F2, F3) --------------------


@pytest.mark.parametrize(
    ("data", "line", "byte"),
    [
        (b"1 2\n\xe9\n0\n", 2, 0xE9),
        (b"1 2\nx\xff\n0\nk\xff\n", 2, 0xFF),
        (b"\xa02\n0\n", 1, 0xA0),  # a raw NBSP byte before an atom
        (b"1 2\n-1\n\xe9x 1 2\n", 3, 0xE9),  # no line 0: the byte is still what is wrong
        (b"\xe9\n1\n", 1, 0xE9),
    ],
)
def test_a_byte_that_is_not_utf8_in_the_clause_list_is_named_as_every_reader_names_it(
    data, line, byte
):
    # it was quoted as the placeholder that keeps it: found '\udce9'
    with pytest.raises(FormatError) as caught:
        parse_dp_input(assignment.read_dp_text(data, "in.txt"), "in.txt")
    assert (caught.value.line, caught.value.message) == (line, f"not UTF-8 text (byte 0x{byte:x})")


def test_the_warning_for_a_back_matter_byte_names_its_line_whatever_the_line_ends():
    for end in ("\n", "\r\n", "\r"):  # (with CR alone it named the back matter's first line)
        data = end.join(["1 2", "0", "a", "b\xe9"]).encode("latin-1") + end.encode()
        formula = parse_dp_input(assignment.read_dp_text(data, "in.txt"), "in.txt")
        assert [str(w) for w in formula.warnings] == [
            "in.txt:4: the back matter is not UTF-8 text (byte 0xe9)"
        ]


@pytest.mark.parametrize(
    ("text", "line", "word"),
    [
        ("1 -2 3\n-3\n00\nkey\n", 3, "00"),
        ("1 -2 3\n-3\n-0\n", 3, "-0"),
        ("1 -2 3\n  000 \r\n1 At(START,0)\r\n", 2, "000"),
        ("1 -2 3\n-3\n0 0\nkey\n", 3, "0 0"),  # (was refused at 'key': review 26 #6)
    ],
)
def test_a_separator_written_otherwise_than_0_is_refused_at_its_line(text, line, word):
    # it was refused at the next line ('key' is no atom number) or at the file's end; the
    # line is not taken for the separator, so that every reader here reads a file alike
    with pytest.raises(FormatError) as caught:
        parse_dp_input(text, "in.txt")
    assert (caught.value.line, caught.value.message) == (
        line, f"a line '{word}' does not end the clause list: the line that ends it is written '0'"
    )  # fmt: skip
    assert parse_dp_input("01 -02 3\n-03\n0\nkey\n").clauses == [[1, -2, 3], [-3]]  # as before


@pytest.mark.parametrize(
    ("text", "word"), [("1 T\n00\nkey\n", "00"), ("1 T\n -0\n", "-0"), ("1 T\n0 0\n", "0 0")]
)
def test_a_dp_output_whose_0_line_is_written_otherwise_is_refused_at_that_line(text, word):
    with pytest.raises(FormatError) as caught:
        parse_dp_output(text, "out.txt")
    assert (caught.value.line, caught.value.message) == (
        2, f"a line '{word}' does not end the valuation: the line that ends it is written '0'"
    )  # fmt: skip


def test_a_dp_output_warns_of_a_back_matter_byte_that_is_not_utf8():
    text = "1 T\n2 F\n 0 \r\n1 At(START,0)\r\n# g\udce9n\udce9r\udce9\r\n"
    output = parse_dp_output(text, "out.txt")
    assert (output.valuation, output.back_matter) == (
        {1: True, 2: False}, "1 At(START,0)\r\n# g\udce9n\udce9r\udce9\r\n"
    )  # fmt: skip
    assert [str(w) for w in output.warnings] == [
        "out.txt:5: the back matter is not UTF-8 text (byte 0xe9)"
    ]
    assert assignment.is_separator_line(" 0 \r\n") and not assignment.is_separator_line("00")
