"""`satkit dp`: the assignment's Davis–Putnam program, end to end on real files."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_terminal import FakeTerminal

from dpll.cli import dp
from formats.assignment import parse_dp_output, read_dp_input

ROHAN = "RohanK6__DavisPutnam-Algorithm/@d602db6/src"
MAZE_CLAUSES = "jkolib__DPLL/fe_out.txt"


def run(args, stdin: bytes | None = None):
    result = CliRunner().invoke(dp, [str(a) for a in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback would have reached the user
    return result


def satisfies(valuation: dict[int, bool], clauses: list[list[int]]) -> bool:
    return all(any(valuation[abs(lit)] == (lit > 0) for lit in clause) for clause in clauses)


def test_reproduces_a_committed_output_byte_for_byte(compat: Path) -> None:
    result = run([compat / ROHAN / "FrontEnd" / "output.txt"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes == (compat / ROHAN / "DavisPutnam" / "output.txt").read_bytes()
    assert result.stderr == ""


def test_the_assignment_example(compat: Path, tmp_path: Path) -> None:
    out = tmp_path / "dp_out.txt"
    source = compat / "mpgarate__Artificial-Intelligence" / "test" / "dp_trivial.txt"
    result = run([source, "-o", out])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    expected = compat / "mpgarate__Artificial-Intelligence" / "test" / "dp_trivial_out.txt"
    assert out.read_bytes() == expected.read_bytes()
    assert out.read_text().startswith("1 T\n2 F\n3 F\n0\n")


def test_unsatisfiable_input_gives_zero_then_back_matter(compat: Path) -> None:
    result = run([compat / "Nick-Stewart7__Davis-Putnam-Solver" / "input3.txt"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "0\nThis input does not have a satisfying assignment\n"


def test_s2ang_buggy_maze_clauses_are_unsatisfiable(compat: Path) -> None:
    source = compat / "S2ang__SAT-solver" / "FrontEndOutput.txt"
    result = run([source])
    assert result.exit_code == 0, result.stderr
    parsed = parse_dp_output(result.stdout, "<stdout>")
    assert parsed.valuation is None
    assert parsed.back_matter == read_dp_input(source).back_matter
    assert len(parsed.back_matter.splitlines()) == 78


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--heuristic", "jw"],
        ["--heuristic", "two-clause", "--seed", "7"],
        ["--heuristic", "dlis"],
        ["--heuristic", "random", "--seed", "3"],
        ["--mode", "cdcl"],
        ["--mode", "cdcl", "--heuristic", "vsids", "--seed", "2"],
    ],
)
def test_every_mode_and_heuristic_writes_a_model(compat: Path, options: list[str]) -> None:
    source = compat / MAZE_CLAUSES
    formula = read_dp_input(source)
    result = run([source, *options])
    assert result.exit_code == 0, result.stderr
    parsed = parse_dp_output(result.stdout, "<stdout>")
    assert parsed.valuation is not None
    assert sorted(parsed.valuation) == list(range(1, formula.nvars + 1))
    assert satisfies(parsed.valuation, formula.clauses)
    assert parsed.back_matter == formula.back_matter


def test_the_same_seed_gives_the_same_output(compat: Path) -> None:
    source = compat / MAZE_CLAUSES
    first = run([source, "--heuristic", "random", "--seed", "11"]).stdout
    assert run([source, "--heuristic", "random", "--seed", "11"]).stdout == first


def test_stdin_and_compressed_input(tmp_path: Path) -> None:
    text = b"1 2 3\n-2 3\n-3\n0\nback matter\n"
    result = run(["-"], stdin=text)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "1 T\n2 F\n3 F\n0\nback matter\n"
    packed = tmp_path / "in.txt.gz"
    packed.write_bytes(gzip.compress(text))
    assert run([packed]).stdout == result.stdout


def test_atoms_missing_from_the_clauses_are_listed_too(compat: Path) -> None:
    # input2 uses atoms 1-4 and 12: the output lists 1..12
    result = run([compat / "Nick-Stewart7__Davis-Putnam-Solver" / "input2.txt"])
    parsed = parse_dp_output(result.stdout, "<stdout>")
    assert sorted(parsed.valuation) == list(range(1, 13))
    assert all(parsed.valuation[atom] for atom in range(5, 12))  # unbound: TRUE


def test_no_clauses_at_all(tmp_path: Path) -> None:
    source = tmp_path / "empty.txt"
    source.write_text("0\nnothing to do\n")
    result = run([source])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "0\nnothing to do\n"


def test_warnings_go_to_stderr_unless_quiet(tmp_path: Path) -> None:
    source = tmp_path / "blank.txt"
    source.write_text("1 2\n\n-1\n0\n")
    result = run([source])
    assert result.exit_code == 0
    assert result.stdout == "1 F\n2 T\n0\n"
    assert result.stderr.startswith(f"warning: {source}:2: ")
    quiet = run([source, "--quiet"])
    assert quiet.stdout == result.stdout and quiet.stderr == ""


def test_bad_input_is_one_error_line(compat: Path, tmp_path: Path) -> None:
    letters = compat / "RohanK6__DavisPutnam-Algorithm/@e0a6306/src/DavisPutnam/input.txt"
    out = tmp_path / "out.txt"
    result = run([letters, "-o", out])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {letters}:1: ")
    assert result.stderr.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1 2\n-1\n", "no line '0'"),
        ("1 x\n0\n", "expected a signed atom number"),
        ("1 0 2\n0\n", "0 inside a clause line"),
        ("s SATISFIABLE\nv 1 -2 0\n", "this is a solver's answer"),
        ("1 T\n2 F\n0\nkey\n", "this is a DP output, not a DP input"),
    ],
)
def test_malformed_dp_input(tmp_path: Path, content: str, message: str) -> None:
    source = tmp_path / "in.txt"
    source.write_text(content)
    result = run([source])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: {source}:")
    assert message in result.stderr


def test_missing_input_file(tmp_path: Path) -> None:
    result = run([tmp_path / "nope.txt"])
    assert result.exit_code == 1
    assert result.stderr == f"error: {tmp_path / 'nope.txt'}: no such file\n"


def test_refuses_to_overwrite_its_input(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text("1\n0\nkey\n")
    result = run([source, "-o", source])
    assert result.exit_code == 1
    assert "refusing to overwrite the input file" in result.stderr
    assert source.read_text() == "1\n0\nkey\n"


def test_output_folder_must_exist(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text("1\n0\n")
    result = run([source, "-o", tmp_path / "no" / "out.txt"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ")
    assert os.listdir(tmp_path) == ["in.txt"]


@pytest.mark.parametrize(
    "options",
    [
        ["--heuristic", "vsids"],  # a cdcl heuristic with the default classic mode
        ["--mode", "cdcl", "--heuristic", "course"],
        ["--heuristic", "nope"],
        ["--mode", "quantum"],
        ["--seed", "x"],
    ],
)
def test_usage_errors(tmp_path: Path, options: list[str]) -> None:
    source = tmp_path / "in.txt"
    source.write_text("1\n0\n")
    result = run([source, *options])
    assert result.exit_code == 2
    assert result.stdout == ""


def test_the_real_command_line(compat: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    source = compat / ROHAN / "FrontEnd" / "output.txt"
    completed = subprocess.run(
        [sys.executable, "-m", "satkit", "dp", str(source), "-o", str(out)],
        capture_output=True,
        check=False,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == b"" and completed.stderr == b""
    assert out.read_bytes() == (compat / ROHAN / "DavisPutnam" / "output.txt").read_bytes()
    assert os.listdir(tmp_path) == ["out.txt"]  # no temporary file left behind


def test_an_output_that_cannot_be_written_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unread(path: str) -> None:
        raise AssertionError("the input was read before the output was checked")

    monkeypatch.setattr("dpll.cli.read_dp_input", unread)
    source = tmp_path / "in.txt"
    source.write_text("1 2\n0\n")
    missing = tmp_path / "missing" / "out.txt"
    result = run([source, "-o", missing])
    assert result.exit_code == 1
    assert result.stderr == f"error: {missing}: output folder does not exist\n"
    result = run([source, "-o", source])
    assert result.exit_code == 1 and "refusing to overwrite the input file" in result.stderr


def test_readme_dp_example_is_shipped_and_holds() -> None:
    # README's DP section ran `satkit dp example.txt` on a file that was not in the
    # repository (audit 17-D #5)
    example = Path(__file__).resolve().parents[1] / "data" / "dp" / "example.txt"
    result = CliRunner().invoke(dp, [str(example)])
    assert result.exit_code == 0
    assert result.stdout == (
        "1 T\n2 F\n3 F\n0\nThis is a simple example with 3 clauses and 3 atoms.\n"
    )


def test_stats_gives_the_seeds_splitting_count_on_stderr(tmp_path: Path) -> None:
    # seed 003 reports the splitting-rule applications; `dp` could not say them (audit
    # 19-A #2): `--stats` prints the solver's statistics on stderr, the output unchanged
    clauses = "1 2\n-1 2\n1 -2\n-1 -2 3\n0\nkey\n"
    plain = run(["-", "-o", "-"], stdin=clauses.encode())
    counted = run(["-", "-o", "-", "--stats"], stdin=clauses.encode())
    assert counted.exit_code == plain.exit_code == 0
    assert counted.stdout == plain.stdout and plain.stderr == ""
    lines = counted.stderr.splitlines()
    assert "splits: 2" in lines and any(line.startswith("decisions: ") for line in lines)


def _pigeonhole(holes: int) -> str:
    """DP input text: holes + 1 pigeons in ``holes`` holes (unsatisfiable)."""
    def atom(pigeon: int, hole: int) -> int:
        return pigeon * holes + hole + 1

    lines = [" ".join(str(atom(p, h)) for h in range(holes)) for p in range(holes + 1)]
    for h in range(holes):
        for p in range(holes + 1):
            lines += [f"-{atom(p, h)} -{atom(q, h)}" for q in range(p + 1, holes + 1)]
    return "\n".join(lines) + "\n0\n"


@pytest.mark.parametrize("command", ["dp", "solve"])
@pytest.mark.parametrize("quiet", [False, True])
def test_dp_and_solve_show_progress_at_a_terminal_unless_quiet(
    tmp_path, monkeypatch, quiet, command
):
    # `dp` can run for hours (course order, no learning) and showed nothing (audit 26-B F4)
    import dpll.cli
    import formats.cli

    monkeypatch.setattr(formats.cli, "PROGRESS_DELAY", 0.01)
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    source, out = tmp_path / "php.txt", tmp_path / "out.txt"
    source.write_text(_pigeonhole(7))  # about 0.1 s in the course's order
    quiet_flag = ["-q"] if quiet else []
    if command == "dp":
        assert dp.main([str(source), "-o", str(out), *quiet_flag], standalone_mode=False) == 0
        assert out.read_text() == "0\n"
    else:
        args = [str(source), "--mode", "classic", "--heuristic", "course", *quiet_flag]
        assert dpll.cli.solve.main(args, standalone_mode=False) == 20
    if quiet:
        assert "conflicts" not in terminal.text
    else:
        assert f"satkit {command}: 0 s, " in terminal.text and " conflicts (" in terminal.text
        assert terminal.text.endswith("\r\x1b[K") or terminal.text.endswith("\r")
