"""`satkit convert` and `satkit stats`, end to end, and the bad-input table.

Most cases run in-process through click's CliRunner (fast); a few run the real
`satkit` entry point in a subprocess, to see exactly what a user sees.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from formats.assignment import dp_input_text, parse_dp_input
from formats.cli import convert, stats
from formats.dimacs import parse_dimacs, read_dimacs
from formats.formula import Formula

DP_TEXT = "1 2 3 \r\n-2 3\r\n-3\r\n0 \r\nThis is a simple example.\r\n\r\n  with a blank line  \r\n"


def run(command, args, stdin: bytes | None = None):
    result = CliRunner().invoke(command, [str(a) for a in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback would have reached the user
    return result


def files_in(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


# -- convert ------------------------------------------------------------------------------


def test_dp_to_dimacs_to_dp_is_byte_for_byte(tmp_path):
    source = tmp_path / "in.txt"
    source.write_bytes(DP_TEXT.encode())
    cnf = tmp_path / "mid.cnf"
    back = tmp_path / "back.txt"
    result = run(convert, [source, "-o", cnf])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    middle = cnf.read_text()
    assert "p cnf 3 3\n1 2 3 0\n-2 3 0\n-3 0\n" in middle
    assert middle.startswith("c back-matter ")
    assert run(convert, [cnf, "-o", back]).exit_code == 0
    expected = "1 2 3\n-2 3\n-3\n0\n" + DP_TEXT.split("0 \r\n", 1)[1]
    assert back.read_bytes() == expected.encode()  # clause lines normalised, back matter exact
    # and once normalised, the round trip is the identity on the whole file
    run(convert, [back, "-o", cnf])
    again = tmp_path / "again.txt"
    run(convert, [cnf, "-o", again])
    assert again.read_bytes() == back.read_bytes()


def test_dimacs_to_dp_to_dimacs_keeps_the_clauses(tmp_path):
    source = tmp_path / "in.cnf"
    source.write_text("c a comment\np cnf 5 3\n1 -5\n 0 2 3 0\n-4 0\n%\n0\n")
    dp = tmp_path / "out.txt"
    assert run(convert, [source, "-o", dp]).exit_code == 0
    assert dp.read_text() == "1 -5\n2 3\n-4\n0\n"
    cnf = tmp_path / "back.cnf"
    assert run(convert, [dp, "-o", cnf]).exit_code == 0
    assert parse_dimacs(cnf.read_text(), strict=True).clauses == [[1, -5], [2, 3], [-4]]


def test_dimacs_names_become_the_dp_key_and_unused_declared_variables_are_named(tmp_path):
    source = tmp_path / "named.cnf"
    source.write_text("c var 1 At(A,0)\nc var 2 At(B,0)\np cnf 4 2\n1 2 0\n-1 0\n")
    result = run(convert, [source])
    assert result.exit_code == 0
    assert result.stdout == "1 2\n-1\n0\n1 At(A,0)\n2 At(B,0)\n"
    assert "variables 3..4 are declared but in no clause" in result.stderr
    # names and back matter both: the back matter wins, and the names' loss is said
    both = tmp_path / "both.cnf"
    both.write_text('c var 1 x\nc back-matter "key\\n"\np cnf 1 1\n1 0\n')
    result = run(convert, [both])
    assert result.stdout == "1\n0\nkey\n" and "'c var' names are not written" in result.stderr


def test_comments_left_out_of_a_dp_input_are_counted(tmp_path):
    # SATLIB's header comments vanished without a word from a "lossless" conversion
    # (audit 22-C #2); the carried 'c var' and 'c back-matter' lines are not counted
    source = tmp_path / "commented.cnf"
    source.write_text('c SATLIB\nc var 1 x\np cnf 2 2\n1 -2 0\nc mid\n2 0\n')
    result = run(convert, [source])
    assert (result.exit_code, result.stdout) == (0, "1 -2\n2\n0\n1 x\n")
    assert f"warning: {source}: the DP format has no comments: its 2 comment lines are not " \
        "written\n" in result.stderr
    source.write_text("c one\np cnf 1 1\n1 0\n")
    assert "comments: its comment line is not written" in run(convert, [source]).stderr
    assert run(convert, [source, "-q"]).stderr == ""


def test_to_and_from_options(tmp_path):
    bare = tmp_path / "bare.txt"  # (a .cnf name would make it DIMACS whatever its lines)
    bare.write_text("1 -2\n0\n")  # detected as DP input (no 0 at the end of a clause line)
    result = run(convert, [bare, "--to", "dimacs"])
    assert result.stdout == "p cnf 2 1\n1 -2 0\n"
    result = run(convert, [bare, "--from", "dimacs", "--to", "dimacs"])
    assert result.stdout == "p cnf 2 1\n1 -2 0\n"
    assert "no 'p cnf VARIABLES CLAUSES' header" in result.stderr
    result = run(convert, [bare, "--from", "dimacs", "--to", "dimacs", "--quiet"])
    assert (result.stdout, result.stderr) == ("p cnf 2 1\n1 -2 0\n", "")
    result = run(convert, [bare, "--from", "dimacs", "--strict"])
    assert result.exit_code == 1
    cnf = tmp_path / "x.cnf"
    cnf.write_text("p cnf 3 1\n1 -3 0\n")
    assert run(convert, [cnf, "--to", "dimacs"]).stdout == "p cnf 3 1\n1 -3 0\n"
    assert run(convert, [cnf]).stdout == "1 -3\n0\n"
    dp = tmp_path / "x.txt"
    dp.write_text("1\n0\nkey\n")
    assert run(convert, [dp, "--to", "assignment"]).stdout == "1\n0\nkey\n"


def test_convert_reads_stdin_and_compressed_input(tmp_path):
    result = run(convert, ["-"], stdin=gzip.compress(b"p cnf 2 1\n1 -2 0\n"))
    assert (result.exit_code, result.stdout) == (0, "1 -2\n0\n")
    result = run(convert, ["-", "--to", "dimacs"], stdin=b"\xef\xbb\xbf1 -2\r\n0\r\nk\r\n")
    assert result.stdout == 'c back-matter "k\\r\\n"\np cnf 2 1\n1 -2 0\n'


def test_convert_warnings_go_to_stderr(tmp_path):
    source = tmp_path / "w.cnf"
    source.write_text("p cnf 1 5\n1 2 0\n")
    result = run(convert, [source])
    assert result.exit_code == 0
    assert result.stdout == "1 2\n0\n"
    assert result.stderr.splitlines() == [
        f"warning: {source}:1: header declares 1 variable but literals go up to 2",
        f"warning: {source}:1: header declares 5 clauses but the file has 1",
    ]


def test_an_empty_clause_cannot_become_dp_input(tmp_path):
    """Documented behaviour: exit 1, one error line that says why, no output file."""
    source = tmp_path / "e.cnf"
    source.write_text("p cnf 2 3\n1 2 0\n0\n-1 0\n")
    out = tmp_path / "e.txt"
    result = run(convert, [source, "--to", "assignment", "-o", out])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: {source}:3: clause 2 is empty")
    assert "cannot express an empty clause" in lines[0]
    assert result.stdout == ""
    assert files_in(tmp_path) == ["e.cnf"]
    # the DIMACS side keeps it
    assert run(convert, [source, "--to", "dimacs"]).stdout == "p cnf 2 3\n1 2 0\n0\n-1 0\n"


def test_convert_writes_dimacs_under_a_dimacs_name(tmp_path):
    # `convert u.cnf -o u2.cnf` wrote the DP format into u2.cnf, which every reader then
    # took for DIMACS: its clauses ran together and an UNSAT formula came back SAT
    # (audit 23-C #1)
    source = tmp_path / "u.cnf"
    source.write_text("p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n")
    for name in ("u2.cnf", "u2.DIMACS", "u2.cnf.gz"):
        out = tmp_path / name
        result = run(convert, [source, "-o", out])
        assert result.exit_code == 0, result.output
        assert read_dimacs(out).clauses == [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    # another name, or stdout, still gets the other format
    assert run(convert, [source, "-o", tmp_path / "u.txt"]).exit_code == 0
    assert (tmp_path / "u.txt").read_text() == "1 2\n-1 2\n1 -2\n-1 -2\n0\n"
    assert run(convert, [source]).stdout == "1 2\n-1 2\n1 -2\n-1 -2\n0\n"
    # asking for the DP format under a DIMACS name is a usage error, and writes nothing
    refused = run(convert, [source, "--to", "assignment", "-o", tmp_path / "dp.cnf"])
    assert refused.exit_code == 2
    assert "dp.cnf is named as a DIMACS file" in refused.stderr
    assert not (tmp_path / "dp.cnf").exists()


def test_convert_refuses_to_overwrite_its_input(tmp_path):
    source = tmp_path / "same.cnf"
    source.write_text("p cnf 1 1\n1 0\n")
    result = run(convert, [source, "--to", "dimacs", "-o", source])
    assert result.exit_code == 1
    assert result.stderr == f"error: {source}: refusing to overwrite the input file\n"
    assert source.read_text() == "p cnf 1 1\n1 0\n"


def test_convert_checks_its_output_before_reading(tmp_path, monkeypatch):
    def unread(*_args, **_kwargs):
        raise AssertionError("the input was read before the output was checked")

    monkeypatch.setattr("formats.cli.read_formula", unread)
    source = tmp_path / "in.cnf"
    source.write_text("p cnf 1 1\n1 0\n")
    missing = tmp_path / "missing" / "out.txt"
    result = run(convert, [source, "-o", missing])
    assert result.exit_code == 1
    assert result.stderr == f"error: {missing}: output folder does not exist\n"


@pytest.mark.parametrize(
    "args",
    [["--to", "json"], ["--from", "xml"], ["--bogus"], []],
)
def test_usage_errors_exit_2(tmp_path, args):
    source = tmp_path / "u.cnf"
    source.write_text("p cnf 1 1\n1 0\n")
    result = run(convert, [source, *args] if args else [])
    assert result.exit_code == 2


blank = st.sampled_from([" ", "  ", "\t"])
dp_clause_lines = st.lists(
    st.lists(st.integers(1, 99).flatmap(lambda a: st.sampled_from([a, -a])), min_size=1),
    max_size=12,
)
back_matter_texts = st.text(  # a NUL byte makes any input "binary data" (see dp-nul below)
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\x00"),
    max_size=80,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dp_clause_lines, back_matter_texts, st.sampled_from(["\n", "\r\n"]))
def test_lossless_dp_dimacs_dp_through_the_command(clauses, back_matter, newline):
    text = newline.join([*(" ".join(map(str, c)) for c in clauses), "0"]) + newline + back_matter
    first = run(convert, ["-"], stdin=text.encode())
    assert first.exit_code == 0, first.stderr
    back = run(convert, ["-"], stdin=first.stdout_bytes)
    assert back.exit_code == 0, back.stderr
    again = parse_dp_input(back.stdout_bytes.decode())
    assert again.clauses == clauses
    assert again.back_matter == back_matter
    assert (
        back.stdout_bytes
        == dp_input_text(Formula(clauses=clauses, back_matter=back_matter)).encode()
    )


# -- stats --------------------------------------------------------------------------------

STATS_CNF = "p cnf 10 8\n1 2 0\n2 1 0\n1 -1 3 0\n0\n4 0\n-4 5 0\n1 2 2 0\n6 -7 8 0\n"


def test_stats_text(tmp_path):
    source = tmp_path / "s.cnf"
    source.write_text(STATS_CNF)
    result = run(stats, [source])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"file:              {source}",
        "format:            dimacs",
        "variables:         10 (8 used)",
        "clauses:           8",
        "literals:          16",
        "clause lengths:    0: 1, 1: 1, 2: 3, 3: 3",
        "empty clauses:     1",
        "unit clauses:      1",
        "binary clauses:    3",
        "pure literals:     6",
        "duplicate clauses: 2",
        "tautologies:       1",
    ]


def test_stats_json_and_dp_input(tmp_path):
    source = tmp_path / "s.cnf"
    source.write_text(STATS_CNF)
    data = json.loads(run(stats, [source, "--json"]).stdout)
    assert data == {
        "file": str(source),
        "format": "dimacs",
        "variables": 10,
        "variables_used": 8,
        "clauses": 8,
        "literals": 16,
        "length_histogram": {"0": 1, "1": 1, "2": 3, "3": 3},
        "empty_clauses": 1,
        "unit_clauses": 1,
        "binary_clauses": 3,
        "pure_literals": 6,
        "duplicate_clauses": 2,
        "tautologies": 1,
    }
    dp = tmp_path / "s.txt"
    dp.write_text("1 -2\n2\n0\nkey\n")
    data = json.loads(run(stats, [dp, "--json"]).stdout)
    assert (data["format"], data["clauses"], data["pure_literals"]) == ("assignment", 2, 1)
    empty = run(stats, [tmp_path / "s.txt", "--json"], stdin=None)
    assert empty.exit_code == 0


def test_stats_from_stdin_with_warnings(tmp_path):
    result = run(stats, ["-", "--json"], stdin=b"p cnf 1 1\n1 2 0\n")
    assert json.loads(result.stdout)["variables"] == 2
    assert result.stderr.startswith("warning: <stdin>:1: header declares 1 variable")
    quiet = run(stats, ["-", "--quiet"], stdin=b"p cnf 1 1\n1 2 0\n")
    assert quiet.stderr == ""
    strict = run(stats, ["-", "--strict"], stdin=b"p cnf 1 1\n1 2 0\n")
    assert (strict.exit_code, strict.stdout) == (1, "")
    assert strict.stderr == "error: <stdin>:2: literal 2 exceeds the declared 1 variable\n"


# -- the bad-input table ------------------------------------------------------------------

TEXT = "p cnf 3 2\n1 -2 0\n2 3 0\n" * 1  # a valid formula to damage
BIG = ("p cnf 3 2000\n" + "1 -2 3 0\n" * 2000).encode()


def _cut(data: bytes) -> bytes:
    return data[: len(data) // 2]


ANY_LINE = "some line"  # where the readable part of a damaged stream ends (see test_streams)

# (id, input bytes, extra args, line or None, fragment of the message)
BAD_INPUTS = [
    ("letter-token", b"p cnf 2 1\n1 x 0\n", [], 2, "expected a literal or 0, found 'x'"),
    ("float-token", b"p cnf 2 1\n1 2.5 0\n", [], 2, "found '2.5'"),
    ("plus-sign", b"p cnf 2 1\n+1 2 0\n", [], 2, "found '+1'"),
    ("minus-zero", b"p cnf 2 1\n1 -0\n", [], 2, "'-0' is not a literal"),
    ("minus-zero-late", b"p cnf 2 2\n1 0\nc x\n\n2 -0 0\n", [], 5, "'-0' is not a literal"),
    ("lone-dash", b"p cnf 2 1\n1 - 2 0\n", [], 2, "found '-'"),
    ("percent-inline", b"p cnf 2 1\n1 % 0\n", [], 2, "found '%'"),
    ("beyond-header", b"p cnf 2 1\n1 -3 0\n", ["--strict"], 2, "literal -3 exceeds"),
    ("more-declared", b"p cnf 3 5\n1 0\n", ["--strict"], 1, "header declares 5 clauses"),
    ("fewer-declared", b"p cnf 3 1\n1 0\n2 0\n", ["--strict"], 1, "header declares 1 clause"),
    ("no-header-strict", b"1 2 0\n", ["--strict"], 1, "no 'p cnf VARIABLES CLAUSES' header"),
    ("no-final-zero", b"p cnf 3 1\n1 2\n", ["--strict"], 2, "last clause has no terminating 0"),
    ("header-late", b"c\n1 0\np cnf 1 1\n", ["--strict", "--from", "dimacs"], 2, "no 'p cnf"),
    ("header-short", b"p cnf 2\n1 0\n", [], 1, "malformed header"),
    ("header-words", b"p cnf a b\n1 0\n", [], 1, "malformed header"),
    ("header-negative", b"p cnf -1 2\n", [], 1, "malformed header"),
    ("header-wcnf", b"p wcnf 2 1 3\n1 0\n", [], 1, "malformed header"),
    ("two-headers", b"p cnf 1 1\nc\np cnf 1 1\n1 0\n", [], 3, "a second 'p cnf' header"),
    ("truncated-gzip", _cut(gzip.compress(BIG)), [], ANY_LINE, "gzip data is truncated or corrupt"),
    ("truncated-xz", _cut(lzma.compress(BIG)), [], ANY_LINE, "xz data is truncated or corrupt"),
    ("truncated-bz2", _cut(bz2.compress(BIG)), [], 1, "bz2 data is truncated or corrupt"),
    # what follows a whole gzip stream: named for what it is (minisat and gzip -d drop it)
    ("gzip-then-garbage", gzip.compress(b"p cnf 2 2\n1 0\n-1 2 0\n") + b"garbage", [], 4,
     "bytes that are not gzip data follow the gzip stream"),
    ("gzip-magic-garbage", b"\x1f\x8b" + b"garbage" * 20, [], 1, "gzip data is truncated"),
    ("binary-garbage", b"p cnf 1 1\n\x00\x07\x1b\x00\n", [], 2, "binary data"),
    ("nul-in-clause", b"p cnf 1 1\n1 \x00 0\n", [], 2, "found"),
    ("elf-binary", b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)), [], 1, ""),
    ("invalid-utf8-comment", b"c ok\nc caf\xe9\np cnf 1 1\n1 0\n", ["--strict"], 2, "not UTF-8"),
    ("huge-literal", b"p cnf 3 1\n99999999999999999999999 0\n", [], 2, "largest variable number"),
    ("huge-literal-strict", b"p cnf 3 1\n1 0\n-2147483648 0\n", ["--strict"], 3, "largest"),
    ("huge-literal-no-header", b"1 0\n\n2 " + b"7" * 5000 + b" 0\n", [], 3, "largest"),
    ("dp-huge-atom", b"1 2\n1 99999999999999999999999\n0\nk\n", [], 2, "largest variable"),
    ("invalid-utf8-clause", b"p cnf 1 1\n1 \xe9 0\n", [], 2, "not UTF-8 text (byte 0xe9)"),
    ("empty-file", b"", [], 1, "empty input"),
    ("blank-file", b"\n  \n\t\n", [], 4, "empty input"),
    ("comment-only", b"c one\nc two\n", [], 3, "empty input"),
    ("bom-only", b"\xef\xbb\xbf", [], 1, "empty input"),
    ("dp-no-zero-line", b"1 2\n-1\n", [], 2, "no line '0' ending the clause list"),
    ("dp-letters", b"1 2\nP Q -R\n0\nkey\n", [], 2, "expected a signed atom number, found 'P'"),
    ("dp-minus-zero", b"1 2\n-0 3\n0\n", [], 2, "0 inside a clause line"),
    ("dp-bad-utf8-clause", b"1 2\nx\xff\n0\nk\xff\n", [], 2, "not UTF-8 text (byte 0xff)"),
    ("dp-output-given", b"1 T\n2 F\n0\nkey\n", [], 1, "this is a DP output, not a DP input"),
    ("dp-forced-on-dimacs", b"p cnf 1 1\n1 0\n0\n", ["--from", "assignment"], 1, "is DIMACS"),
    ("dp-forced-no-zero-line", b"p cnf 1 1\n1 0\n", ["--from", "assignment"], 1, "is DIMACS"),
    ("dp-forced-no-p", b"1 2\n-1\n", ["--from", "assignment"], 2, "no line '0'"),
    ("dp-nul", b"1 2\n0\n\x00\n", [], 3, "binary data"),
]


@pytest.fixture(params=BAD_INPUTS, ids=[case[0] for case in BAD_INPUTS])
def bad_case(request):
    return request.param


def _check_one_error_line(result, name: str, line: int | str | None, fragment: str) -> None:
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    if line is None:
        where = re.escape(f"{name}: ")
    elif line == ANY_LINE:
        where = re.escape(f"{name}:") + r"[1-9][0-9]*: "
    else:
        where = re.escape(f"{name}:{line}: ")
    assert re.match("error: " + where, lines[0]), lines[0]
    assert fragment in lines[0]


def test_bad_input_through_convert(tmp_path, bad_case):
    case_id, data, extra, line, fragment = bad_case
    source = tmp_path / f"{case_id}.in"
    source.write_bytes(data)
    out = tmp_path / "out.cnf"
    precreate = BAD_INPUTS.index(bad_case) % 2 == 0
    if precreate:
        out.write_bytes(b"known content\n")
    before = files_in(tmp_path)
    result = run(convert, [source, "-o", out, *extra])
    _check_one_error_line(result, str(source), line, fragment)
    assert files_in(tmp_path) == before  # no temp files, no new output
    if precreate:
        assert out.read_bytes() == b"known content\n"
    else:
        assert not out.exists()


def test_bad_input_through_stats(tmp_path, bad_case):
    case_id, data, extra, line, fragment = bad_case
    source = tmp_path / f"{case_id}.in"
    source.write_bytes(data)
    result = run(stats, [source, *extra])
    _check_one_error_line(result, str(source), line, fragment)


@pytest.mark.parametrize("command", [convert, stats])
def test_missing_file_and_directory(tmp_path, command):
    out = tmp_path / "out.cnf"
    out.write_text("keep\n")
    missing = tmp_path / "missing.cnf"
    args = ["-o", out] if command is convert else []
    result = run(command, [missing, *args])
    _check_one_error_line(result, str(missing), None, "no such file")
    result = run(command, [tmp_path, *args])
    _check_one_error_line(result, str(tmp_path), None, "is a directory, not a file")
    assert out.read_text() == "keep\n"
    assert files_in(tmp_path) == ["out.cnf"]


def test_bad_outputs(tmp_path):
    source = tmp_path / "ok.cnf"
    source.write_text("p cnf 1 1\n1 0\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    result = run(convert, [source, "-o", folder])
    _check_one_error_line(result, str(folder), None, "is a directory, not a file")
    nowhere = tmp_path / "no" / "out.txt"
    result = run(convert, [source, "-o", nowhere])
    _check_one_error_line(result, str(nowhere), None, "output folder does not exist")
    assert files_in(tmp_path) == ["folder", "ok.cnf"]
    assert files_in(folder) == []


def test_bad_stdin_is_named_stdin():
    result = run(convert, ["-", "-o", "-"], stdin=b"p cnf 1 1\n1 q 0\n")
    _check_one_error_line(result, "<stdin>", 2, "found 'q'")


# -- the real entry point -----------------------------------------------------------------


def satkit(*args: str, stdin: bytes = b"", cwd: Path | None = None):
    return _run_satkit(args, cwd, input=stdin)


def _run_satkit(args, cwd: Path | None, **stdin_kind):
    """The real entry point in a fresh interpreter (``input=`` bytes or ``stdin=`` a file)."""
    return subprocess.run(
        [sys.executable, "-c", "from satkit import main; main()", *args],
        capture_output=True,
        cwd=cwd,
        check=False,
        **stdin_kind,
    )


def test_real_process_convert_stdin_to_stdout():
    run_ = satkit("convert", "-", stdin=b"c hi\np cnf 2 2\n1 -2 0 2 0\n%\n0\n")
    assert (run_.returncode, run_.stdout) == (0, b"1 -2\n2\n0\n")
    assert run_.stderr == b"warning: <stdin>: the DP format has no comments: its comment " \
        b"line is not written\n"


def test_real_process_bad_inputs_print_one_line_and_no_traceback(tmp_path):
    cases = {
        "trunc.cnf": (gzip.compress(BIG)[:-8], 2002),  # only the CRC trailer is missing
        "bad.cnf": (b"p cnf 2 1\n1 -0\n", 2),
        "dp.txt": (b"1 2\nP Q\n0\n", 2),
    }
    for name, (data, line) in cases.items():
        source = tmp_path / name
        source.write_bytes(data)
        out = tmp_path / "out"
        result = satkit("convert", str(source), "-o", str(out))
        assert result.returncode == 1
        stderr = result.stderr.decode()
        assert len(stderr.splitlines()) == 1, stderr
        where = f"{source}:{line}: " if line else f"{source}: "
        assert stderr.startswith("error: " + where)
        assert not out.exists()
    assert satkit("stats", str(tmp_path / "nope")).stderr == (
        f"error: {tmp_path / 'nope'}: no such file\n".encode()
    )
    assert files_in(tmp_path) == sorted(cases)


# -- audit fixes: empty clause line, stdin as the output, non-UTF-8 comments, huge literals ------


def test_an_empty_clause_is_named_by_its_line_in_a_file_and_by_number_from_stdin(tmp_path):
    text = b"c x\np cnf 2 5\n1 2 0 -1\n0 2 0 0\n1 0\n"  # clause 4 is the second 0 of line 4
    suffix = ": clause 4 is empty: the assignment's DP format cannot express an empty clause"
    for name, data in (("e.cnf", text), ("e.cnf.gz", gzip.compress(text))):
        source = tmp_path / name
        source.write_bytes(data)
        result = run(convert, [source, "--to", "assignment", "--quiet"])
        assert result.exit_code == 1
        assert result.stderr.startswith(f"error: {source}:4{suffix}")
    result = run(convert, ["-", "--to", "assignment", "--quiet"], stdin=text)
    assert result.stderr.startswith(f"error: <stdin>{suffix}")
    leading = tmp_path / "z.cnf"  # zeros written as 00 and 000 still end clauses
    leading.write_bytes(b"p cnf 2 3\n1 00 2 0\n  000  \n")
    result = run(convert, [leading, "--to", "assignment"])
    assert result.stderr.startswith(f"error: {leading}:3: clause 3 is empty")


def test_clause_line_of_a_file(tmp_path):
    from formats.dimacs import clause_line

    source = tmp_path / "c.cnf"
    source.write_bytes(b"\xef\xbb\xbfc 0 0\np cnf 3 4\n1\n-2 0 3\n0 0\nc 0\n2 0\n%\n0\n")
    assert [clause_line(source, index) for index in range(1, 6)] == [3, 4, 5, 7, None]
    assert clause_line(tmp_path / "absent.cnf", 1) is None
    assert clause_line("-", 1) is None  # stdin cannot be read again


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_an_empty_clause_from_a_named_pipe_is_named_by_number(tmp_path):
    # the file was opened again to find the clause's line: a named pipe waited for ever
    # for a second writer (audit 17-B #3)
    fifo = tmp_path / "pipe.cnf"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"printf 'p cnf 2 3\\n1 2 0\\n0\\n-1 0\\n' > '{fifo}'"])
    done = subprocess.run(
        [sys.executable, "-m", "satkit", "convert", str(fifo), "--to", "assignment"],
        capture_output=True, text=True, timeout=120, check=False,
        cwd=Path(__file__).resolve().parents[1],
    )  # fmt: skip
    writer.wait(timeout=120)
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {fifo}: clause 2 is empty")


def satkit_reading(stdin_path: Path, *args: str, cwd: Path | None = None):
    """The real entry point with its stdin redirected from a file (``satkit … < FILE``)."""
    with open(stdin_path, "rb") as stdin:
        return _run_satkit(args, cwd, stdin=stdin)


def test_real_process_stdin_redirected_from_the_output_is_not_overwritten(tmp_path):
    target = tmp_path / "ex.txt"
    original = b"1 2 3\n-2 3\n-3\n0\nback\n"
    target.write_bytes(original)
    for output in (str(target), "ex.txt"):
        result = satkit_reading(target, "convert", "-", "-o", output, cwd=tmp_path)
        assert result.returncode == 1
        refusal = f"error: {output}: refusing to overwrite the input file\n"
        assert result.stderr.decode() == refusal
        assert target.read_bytes() == original
        assert files_in(tmp_path) == ["ex.txt"]
    # another file from the same stdin, or the target fed through a pipe: written as before
    other = tmp_path / "other.txt"
    assert satkit_reading(target, "convert", "-", "-o", str(other)).returncode == 0
    assert other.read_bytes().startswith(b'c back-matter "back\\n"\np cnf 3 3\n')
    assert satkit("convert", "-", "-o", str(target), stdin=original).returncode == 0


def test_a_non_utf8_comment_is_a_warning_unless_strict(tmp_path):
    source = tmp_path / "latin1.cnf"
    source.write_bytes(b"c caf\xe9\np cnf 1 1\n1 0\n")
    result = run(convert, [source, "--to", "dimacs"])
    assert result.exit_code == 0
    assert result.stdout == "c caf\ufffd\np cnf 1 1\n1 0\n"
    assert result.stderr == (
        f"warning: {source}:1: comment is not UTF-8 text; undecodable bytes replaced\n"
    )
    assert run(convert, [source, "--quiet"]).stderr == ""
    strict = run(convert, [source, "--strict"])
    assert (strict.exit_code, strict.stdout) == (1, "")
    assert strict.stderr == f"error: {source}:1: comment is not UTF-8 text\n"


def test_real_process_solve_reads_a_non_utf8_comment_with_one_warning(tmp_path):
    source = tmp_path / "latin1.cnf"
    source.write_bytes(b"c caf\xe9\np cnf 1 1\n1 0\n")
    result = satkit("solve", str(source))
    assert result.returncode == 10
    warning = f"warning: {source}:1: comment is not UTF-8 text; undecodable bytes replaced"
    assert result.stderr.decode().splitlines() == [warning]
    assert satkit("solve", "--strict", str(source)).stderr.decode() == (
        f"error: {source}:1: comment is not UTF-8 text\n"
    )


@pytest.mark.parametrize("strict", [[], ["--strict"]])
def test_real_process_solve_and_dp_refuse_huge_literals(tmp_path, strict):
    cnf = tmp_path / "huge3.cnf"
    cnf.write_bytes(b"p cnf 3 1\n99999999999999999999999 0\n")
    result = satkit("solve", *strict, str(cnf))
    assert result.returncode == 1
    assert result.stderr.decode() == (
        f"error: {cnf}:2: literal 99999999999999999999999 exceeds the largest variable number "
        "2147483647\n"
    )
    if strict:
        return
    dp_in = tmp_path / "dphuge.txt"
    dp_in.write_bytes(b"1 99999999999999999999999\n0\nback\n")
    out = tmp_path / "out.txt"
    result = satkit("dp", str(dp_in), "-o", str(out))
    assert result.returncode == 1
    assert result.stderr.decode() == (
        f"error: {dp_in}:1: atom 99999999999999999999999 exceeds the largest variable number "
        "2147483647\n"
    )
    assert not out.exists()


def test_real_process_truncated_gzip_names_the_line_where_the_data_ends(tmp_path):
    text = b"p cnf 3 100000\n" + b"".join(b"%d -%d 3 0\n" % (i % 3 + 1, i % 2 + 1) for i in
                                           range(100_000))
    packed = gzip.compress(text)
    source = tmp_path / "tr.cnf.gz"
    source.write_bytes(packed[: len(packed) // 2])
    readable = zlib.decompressobj(31).decompress(packed[: len(packed) // 2])
    line = readable.count(b"\n") + 1
    assert line > 1000
    for command in ("solve", "convert"):
        result = satkit(command, str(source))
        assert result.returncode == 1
        assert result.stderr.decode().startswith(
            f"error: {source}:{line}: gzip data is truncated or corrupt"
        )


def test_a_back_matter_that_is_not_utf8_is_copied_byte_for_byte(tmp_path):
    # a key written in cp1252 (a Windows program's): dp and convert copy its bytes
    from dpll.cli import dp as dp_command

    source = tmp_path / "lat.txt"
    source.write_bytes(b"1 2\n0\nCaf\xe9 1\n")
    result = CliRunner().invoke(dp_command, [str(source)])
    assert result.exit_code == 0 and result.stdout_bytes == b"1 T\n2 T\n0\nCaf\xe9 1\n"
    assert "lat.txt:3: the back matter is not UTF-8 text (byte 0xe9)" in result.stderr
    out = tmp_path / "lat.out"
    assert CliRunner().invoke(dp_command, [str(source), "-o", str(out)]).exit_code == 0
    assert out.read_bytes() == b"1 T\n2 T\n0\nCaf\xe9 1\n"
    cnf, back = tmp_path / "lat.cnf", tmp_path / "back.txt"
    assert run(convert, [source, "-o", cnf]).exit_code == 0
    assert cnf.read_bytes().decode("utf-8").startswith('c back-matter "Caf\\udce9 1\\n"')
    assert run(convert, [cnf, "-o", back]).exit_code == 0
    assert back.read_bytes() == source.read_bytes()
    # in the clause part such a byte is still an error, with its line
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"1 2\nx\xe9\n0\n")
    result = CliRunner().invoke(dp_command, [str(bad)])
    assert result.exit_code == 1 and "bad.txt:2: not UTF-8 text (byte 0xe9)" in result.stderr


def test_the_memory_a_nested_cgroup_leaves(tmp_path):
    from formats.memory import _cgroup_left

    groups = tmp_path / "cgroup"
    groups.write_text("0::/user.slice/job\n")
    root = tmp_path / "fs"
    job, user = root / "user.slice" / "job", root / "user.slice"
    job.mkdir(parents=True)
    (root / "memory.max").write_text("max\n")
    (user / "memory.max").write_text("1000000\n")  # the slice's limit binds ...
    (user / "memory.current").write_text("400000\n")
    (user / "memory.stat").write_text("anon 1\ninactive_file 100000\n")  # cache is not used
    (job / "memory.max").write_text("max\n")
    assert _cgroup_left(str(root), str(groups)) == 700_000
    (job / "memory.max").write_text("500000\n")  # ... unless the job's is tighter
    (job / "memory.current").write_text("300000\n")
    assert _cgroup_left(str(root), str(groups)) == 200_000
    groups.write_text("1:memory:/\n")  # cgroup v1 only: not read
    assert _cgroup_left(str(root), str(groups)) is None


def test_sizes_in_messages_never_read_zero():
    from formats.cli import byte_size

    # a small disk used to read "need at least 0.0 GB of disk; 0.0 GB are available"
    assert [byte_size(n) for n in (0, 999, 65_536, 3_691_368, 10**9, 2_500_000_000)] == [
        "0 bytes", "999 bytes", "65.5 KB", "3.7 MB", "1.0 GB", "2.5 GB",
    ]  # fmt: skip
    assert byte_size(570 * 10**24) == "570,000,000,000,000,000 GB"  # exact, unlike a float


@pytest.mark.parametrize(
    ("where", "args"),
    [
        ("formats.cli.read_formula", ["convert", "IN", "-o", "OUT"]),
        ("formats.cli.read_formula", ["stats", "IN"]),
        ("dpll.cli.read_dp_input", ["dp", "IN", "-o", "OUT"]),
    ],
)
def test_ctrl_c_is_interrupted_with_130_not_bad_input(tmp_path, monkeypatch, where, args):
    # click printed a bare "Aborted!" and exited 1, the code for bad input
    from satkit import main

    def stopped(*_args, **_kwargs):
        raise KeyboardInterrupt

    source = tmp_path / "in.txt"
    source.write_text("1 2\n0\n")
    out = tmp_path / "out.txt"
    monkeypatch.setattr(where, stopped)
    argv = [str(source) if a == "IN" else str(out) if a == "OUT" else a for a in args]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code == 130
    assert result.stderr == "interrupted: nothing written\n" and not out.exists()


@pytest.mark.parametrize("after", ["the rename", "the writer"])
def test_a_stop_after_the_output_is_in_place_says_it_was_written(tmp_path, monkeypatch, after):
    # the stop came after the rename (inside the atomic writer, or after it returned), and
    # the message said "nothing written" though the old file was replaced (audit 28-C #2)
    import os

    import formats.cli
    from satkit import main

    owner, name = (os, "replace") if after == "the rename" else (formats.cli, "write_dimacs")
    real = getattr(owner, name)

    def then_stopped(*args, **kwargs):
        real(*args, **kwargs)
        raise KeyboardInterrupt

    def stopped(*_args, **_kwargs):
        raise KeyboardInterrupt

    source = tmp_path / "in.cnf"
    source.write_text("p cnf 2 1\n1 -2 0\n")
    out = tmp_path / "out.cnf"
    out.write_text("old\n")
    runner = CliRunner()
    first = runner.invoke(main, ["convert", str(source), "-o", str(tmp_path / "first.cnf")])
    assert first.exit_code == 0  # (what it wrote is not the next run's)
    monkeypatch.setattr(owner, name, then_stopped)
    result = runner.invoke(main, ["convert", str(source), "-o", str(out)])
    assert result.exit_code == 130
    assert result.stderr == f"interrupted after {out} was written whole\n"
    assert out.read_text() == "p cnf 2 1\n1 -2 0\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first.cnf", "in.cnf", "out.cnf"]
    monkeypatch.undo()
    monkeypatch.setattr("formats.cli.read_formula", stopped)
    before = runner.invoke(main, ["convert", str(source), "-o", str(out)])
    assert before.exit_code == 130 and before.stderr == "interrupted: nothing written\n"


def test_a_stop_after_stdout_got_the_whole_output_says_so(tmp_path, monkeypatch):
    # `-o -` (and a device) held the whole output, and the message said "nothing written"
    # (review 28 #1)
    import formats.cli
    from satkit import main

    real = formats.cli.write_dimacs

    def then_stopped(*args, **kwargs):
        real(*args, **kwargs)
        raise KeyboardInterrupt

    source = tmp_path / "in.cnf"
    source.write_text("p cnf 2 1\n1 -2 0\n")
    monkeypatch.setattr(formats.cli, "write_dimacs", then_stopped)
    result = CliRunner().invoke(main, ["convert", str(source), "-o", "-", "--to", "dimacs"])
    assert result.exit_code == 130 and result.stdout == "p cnf 2 1\n1 -2 0\n"
    assert result.stderr == "interrupted after <stdout> was written whole\n"
    device = CliRunner().invoke(main, ["convert", str(source), "-o", "/dev/null", "--to", "dimacs"])
    assert device.stderr == "interrupted after /dev/null was written whole\n"


def test_a_status_line_fits_the_terminal_and_its_kind(monkeypatch):
    # ESC [K showed as ^[[K on a dumb terminal, and a line wider than the terminal wrapped,
    # leaving a stale row at each update (audit 17-B #10)
    import io

    from formats.cli import StatusLine

    class Terminal(io.StringIO):
        def fileno(self):
            return 2

    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((10, 24)))
    monkeypatch.setenv("TERM", "dumb")
    stream = Terminal()
    line = StatusLine(stream)
    line.show("a long status line")
    line.show("short")
    line.clear()
    assert stream.getvalue() == "\ra long st\rshort    \r     \r"
    monkeypatch.setenv("TERM", "xterm")
    stream = Terminal()
    line = StatusLine(stream)
    line.show("a long status line")
    line.clear()
    assert stream.getvalue() == "\ra long st\033[K\r\033[K"


@pytest.mark.parametrize("command", [convert, stats])
def test_strict_reads_dimacs_even_where_the_input_looks_like_dp_input(tmp_path, command):
    # `solve --strict` refused a DP input (no header) that `stats`, `convert` and
    # `crosscheck --strict` read as DP input (audit 27-D #2): README says `--strict` means
    # DIMACS; --from assignment still reads it as DP input
    source = tmp_path / "in.txt"
    source.write_text(DP_TEXT)
    result = run(command, [source, "--strict"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: {source}:1: no 'p cnf VARIABLES CLAUSES' header before the clauses\n"
    )
    assert run(command, [source, "--strict", "--from", "assignment"]).exit_code == 0


@pytest.mark.parametrize("command", [convert, stats])
def test_strict_tells_a_back_end_walk_as_solve_does(tmp_path, command):
    # read as DIMACS under --strict, a walk was "a maze file" (review 27-B #3)
    walk = tmp_path / "walk.txt"
    walk.write_text("START C G H G H\n")
    result = run(command, [walk, "--strict"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: {walk}:1: this is a back end's answer (one line: a walk from START), not a CNF\n"
    )
