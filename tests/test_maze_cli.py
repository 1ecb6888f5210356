"""`satkit maze …` end to end: outputs, exit codes, and a table of malformed mazes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_terminal import FakeTerminal
from pysat.solvers import Minisat22

from formats.assignment import dp_output_text, parse_dp_input, read_dp_input
from formats.dimacs import parse_dimacs
from formats.results import SolverResult, competition_text, minisat_result_text
from maze.decoder import parse_path_text
from maze.parser import parse_maze as read_maze_text
from maze.parser import read_maze
from maze.validator import path_problems, walk_problems
from satkit import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "data" / "maze" / "example.txt"
SMALL = ROOT / "data" / "maze" / "small.txt"
UNSAT = ROOT / "data" / "maze" / "unsat-60-oneway.txt"


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["maze", *map(str, args)], input=stdin)


def valid_for(maze_file: Path, line: str) -> bool:
    path = parse_path_text(line)
    return path is not None and not path_problems(read_maze(maze_file), path)


# --------------------------------------------------------------------------- encode
def test_encode_example_to_stdout():
    result = run("encode", EXAMPLE)
    assert result.exit_code == 0, result.output
    formula = parse_dp_input(result.stdout, "out")
    assert len(formula.clauses) == 334 and formula.nvars == 72
    assert formula.back_matter.startswith("1 At(START,0)\n2 At(A,0)\n")
    assert formula.back_matter.endswith("72 Has(RUBY,5)\n")
    assert result.stderr == ""


@pytest.mark.parametrize("encoding", ["assignment", "compact"])
def test_encode_node_time_key_round_trips_through_dp_and_decode(tmp_path, encoding):
    # seed 001's suggested key, `n N I` for the At atoms only: what some back ends read
    clauses = tmp_path / "fe.txt"
    result = run("encode", EXAMPLE, "--key", "node-time", "--encoding", encoding, "-o", clauses)
    assert result.exit_code == 0, result.output
    formula = read_dp_input(clauses)
    key = formula.back_matter.splitlines()
    assert key[:2] == ["1 START 0", "2 A 0"] and key[-1] == "54 H 5" and len(key) == 54
    dp_out = tmp_path / "dp.txt"
    assert CliRunner().invoke(main, ["dp", str(clauses), "-o", str(dp_out)]).exit_code == 0
    decoded = run("decode", dp_out, "--maze", EXAMPLE)
    assert decoded.exit_code == 0 and valid_for(EXAMPLE, decoded.stdout.strip())


def test_encode_node_time_key_is_refused_for_dimacs(tmp_path):
    out = tmp_path / "x.cnf"
    result = run("encode", EXAMPLE, "--key", "node-time", "-o", out)
    assert result.exit_code == 2 and "--key node-time is for the DP input" in result.output
    assert not out.exists()


def test_encode_small_counts():
    result = run("encode", SMALL)
    formula = parse_dp_input(result.stdout, "out")
    assert (len(formula.clauses), formula.nvars) == (46, 20)


def test_encode_dimacs_names_atoms(tmp_path):
    out = tmp_path / "ex.cnf"
    result = run("encode", EXAMPLE, "--to", "dimacs", "-o", out)
    assert result.exit_code == 0 and result.stdout == ""
    formula = parse_dimacs(out.read_text(), "ex.cnf", strict=True)
    assert (formula.nvars, len(formula.clauses)) == (72, 334)
    assert formula.names[1] == "At(START,0)" and formula.names[72] == "Has(RUBY,5)"


def test_encode_compact_and_steps(tmp_path):
    result = run("encode", EXAMPLE, "--encoding", "compact", "--steps", "3", "--to", "dimacs")
    formula = parse_dimacs(result.stdout, "c.cnf")
    assert formula.nvars == 48 + 32  # 12 At/Has per time * 4 times + 8 registers * 4 times
    assert any(name.startswith("Aux(amo,") for name in formula.names.values())


def test_encode_reads_stdin():
    result = run("encode", "-", stdin=SMALL.read_text())
    assert len(parse_dp_input(result.stdout, "out").clauses) == 46


def test_encode_refuses_to_overwrite_its_input(tmp_path):
    maze = tmp_path / "m.txt"
    maze.write_text(SMALL.read_text())
    result = run("encode", maze, "-o", maze)
    assert result.exit_code == 1
    assert "refusing to overwrite the input" in result.stderr
    assert maze.read_text() == SMALL.read_text()


HUGE_K = "START A\nGOLD\n{k}\nSTART TREASURES NEXT A\nA TREASURES GOLD NEXT START\n"


def test_a_k_too_big_for_the_disk_or_memory_is_refused_up_front(tmp_path, monkeypatch):
    """The clause count is known before encoding: no filling the disk or the memory."""
    import maze.cli

    maze_file = tmp_path / "hugek.txt"
    maze_file.write_text(HUGE_K.format(k=2_000_000_000))
    out = tmp_path / "out.txt"
    monkeypatch.setattr(maze.cli, "_free_disk", lambda output: 10**10)  # any machine: 10 GB
    result = run("encode", maze_file, "-o", out)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {maze_file}:3: K gives 12,000,000,005 clauses")
    assert "GB of disk; 10.0 GB are available" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hugek.txt"]  # nothing written

    monkeypatch.setattr(maze.cli, "available_memory", lambda: 10**9)
    maze_file.write_text(HUGE_K.format(k=10**8))
    result = run("solve", maze_file)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {maze_file}:3: K gives 600,000,005 clauses")
    assert "GB of memory; 1.0 GB are available" in result.stderr
    result = run("solve", maze_file, "--steps", str(10**8))
    assert result.stderr.startswith(f"error: {maze_file}: K gives")  # --steps: no line
    assert run("solve", maze_file, "--steps", "3").exit_code == 10


@pytest.mark.parametrize("k", ["2147483647", "0" * 20 + "9" * 20, "1" * 5000])
def test_a_k_above_what_dimacs_can_number_is_one_error_line_in_the_file_and_as_k(tmp_path, k):
    # 5,000 digits were a traceback: int() refuses more than 4,300 (audit 26-C F1)
    maze_file = tmp_path / "hugek.txt"
    maze_file.write_text(HUGE_K.format(k=k))
    result = run("solve", maze_file)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"error: {maze_file}:3: K ")
    assert "is more than 2,147,483,646: a walk of K moves" in result.stderr
    assert len(result.stderr) < 300  # thousands of digits are cut short
    for command in (["solve", EXAMPLE], ["encode", EXAMPLE], ["generate", "--seed", "1"]):
        result = run(*command, "-k", k)
        assert result.exit_code == 2, command
        assert "is more than 2,147,483,646" in result.stderr and len(result.stderr) < 600


def test_the_largest_k_is_not_refused_as_beyond_dimacs_but_by_the_memory_check(tmp_path):
    maze_file = tmp_path / "maxk.txt"
    maze_file.write_text(HUGE_K.format(k=2_147_483_646))
    result = run("solve", maze_file)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {maze_file}:3: K gives ")


def test_a_k_of_thousands_of_leading_zeros_is_its_value(tmp_path):
    # 5,000 zeros then 3 passed the limit check and reached int(): a traceback (review 26 #1)
    k = "0" * 5000 + "3"
    maze_file = tmp_path / "zeros.txt"
    maze_file.write_text(EXAMPLE.read_text().replace("\n5\n", f"\n{k}\n", 1))
    assert (run("solve", maze_file, "-q").stdout, run("solve", maze_file).exit_code) == (
        "START C G H\n", 10)
    assert run("solve", EXAMPLE, "-k", k).stdout == "START C G H\n"


def test_a_planted_walk_too_long_for_the_memory_is_refused_up_front(tmp_path, monkeypatch):
    # -k 2000000000 --planted grew to 20 GB before it was killed (audit 26-B F5)
    import maze.cli

    monkeypatch.setattr(maze.cli, "available_memory", lambda: 10**9)
    out = tmp_path / "g.txt"
    args = ("generate", "--nodes", "2", "--treasures", "1", "--planted", "-o", out)
    result = run(*args, "-k", "100000000")
    assert (result.exit_code, result.stderr) == (1, (
        "error: --planted: a walk of 100,000,000 moves is held in memory, and its nodes need "
        "at least 1.6 GB of memory; 1.0 GB are available (lower K)\n"))
    assert not out.exists()
    assert run(*args, "-k", "1000").exit_code == 0 and out.exists()
    # with no treasure the walk is made all the same (a solution needs it: audit 28-D #2)
    no_treasure = ("generate", "--nodes", "2", "--treasures", "0", "--planted", "-o", out)
    assert run(*no_treasure, "-k", "100000000").exit_code == 1
    assert run(*no_treasure, "-k", "0").exit_code == 0  # (no move, no walk)


def test_a_maze_too_big_for_the_memory_is_refused_before_it_is_made(tmp_path, monkeypatch):
    # --nodes 100000000 grew past 4 GB before a limit stopped it (audit 28-D #3)
    import maze.cli

    monkeypatch.setattr(maze.cli, "available_memory", lambda: 10**8)
    out = tmp_path / "g.txt"
    args = ("generate", "--treasures", "1", "-k", "3", "-o", out)
    result = run(*args, "--nodes", "1000000")
    assert (result.exit_code, result.stderr) == (1, (
        "error: --nodes 1,000,000 at degree 3: the maze's nodes and edges need at least "
        "570.0 MB of memory; 100.0 MB are available (fewer nodes or a lower degree)\n"))
    assert not out.exists()
    dense = run(*args, "--nodes", "20000", "--degree", "100")
    assert dense.exit_code == 1 and "at degree 100" in dense.stderr
    assert run(*args, "--nodes", "1000").exit_code == 0 and out.exists()


def test_the_memory_check_counts_variables_and_the_solver_s_own_figures(monkeypatch):
    # 100 bytes a clause passed K=10^6 of example.txt as 5.7 GB: it takes 22 GB (review 20b)
    import maze.cli

    monkeypatch.setattr(maze.cli, "available_memory", lambda: 15 * 10**6)
    result = run("solve", EXAMPLE, "-k", "1000")  # 57,049 clauses, 12,012 variables
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {EXAMPLE}: K gives 57,049 clauses and 12,012 variables, which need at least "
        "21.1 MB of memory; 15.0 MB are available (lower K, or use --encoding compact)\n"
    )
    assert run("solve", EXAMPLE, "-k", "1000", "-s", "minisat22", "-q").exit_code == 10


def test_an_external_solver_is_not_refused_a_compact_maze_that_fits(tmp_path, monkeypatch):
    # a ring of 40 nodes with 39 treasures, compact, K=5,000: 1,565,234 clauses and 590,118
    # variables ran in 634 MB with picosat and was refused for 716 MB (review 21 #3)
    import maze.cli

    class Solving(Exception):
        pass

    def solving(*args, **kwargs):
        raise Solving

    nodes = ["START", *(f"N{i}" for i in range(1, 40))]
    rows = [f"{node} TREASURES {'' if i == 0 else f'T{i} '}NEXT {nodes[(i + 1) % 40]} "
            f"{nodes[i - 1]}" for i, node in enumerate(nodes)]  # fmt: skip
    ring = tmp_path / "ring.txt"
    ring.write_text("\n".join([" ".join(nodes), " ".join(f"T{i}" for i in range(1, 40)),
                               "5000", *rows]) + "\n")  # fmt: skip
    monkeypatch.setattr(maze.cli, "solve_maze", solving)
    program = tmp_path / "picosat"  # (never run: a stand-in for the real one)
    program.write_text("#!/bin/sh\nexit 1\n")
    program.chmod(0o755)
    command = ("solve", ring, "--encoding", "compact", "-s", f"bin:{program}")
    monkeypatch.setattr(maze.cli, "available_memory", lambda: 640 * 10**6)
    assert isinstance(run(*command).exception, Solving)  # not refused: on to the solver
    monkeypatch.setattr(maze.cli, "available_memory", lambda: 500 * 10**6)
    refused = run(*command)
    assert refused.exit_code == 1
    assert "1,565,234 clauses and 590,118 variables, which need at least" in refused.stderr


def encode_to_file(maze_file: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """``satkit maze encode MAZE > OUT`` in a real process (stdout a regular file)."""
    with out.open("w") as stdout:
        return subprocess.run(
            [sys.executable, "-c", "from satkit import main; main()", "maze", "encode",
             str(maze_file)],
            stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        )  # fmt: skip


def complete_maze(nodes: int, steps: int) -> str:
    """A maze whose every node leads to every other (GOLD at N1), as maze-file text."""
    names = ["START", *(f"N{i}" for i in range(1, nodes))]
    lines = [" ".join(names), "GOLD", str(steps)]
    for name in names:
        exits = " ".join(other for other in names if other != name)
        lines.append(f"{name} TREASURES {'GOLD' if name == 'N1' else ''} NEXT {exits}")
    return "\n".join(lines) + "\n"


def test_a_k_too_big_for_the_file_stdout_goes_to_is_refused(tmp_path):
    """``> FILE``: the disk check applies to the file stdout is redirected to (a pipe or a
    terminal streams: what reads it decides when to stop)."""
    maze_file = tmp_path / "hugek.txt"
    maze_file.write_text(complete_maze(40, 2_147_483_646))  # the largest K: 46 TB of clauses
    out = tmp_path / "out.txt"
    done = encode_to_file(maze_file, out)
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {maze_file}:3: K gives 1,767,379,041,442 clauses")
    assert "GB of disk" in done.stderr and out.read_text() == ""
    assert encode_to_file(EXAMPLE, out).returncode == 0
    assert len(parse_dp_input(out.read_text()).clauses) == 334


@pytest.mark.skipif(sys.platform == "win32", reason="signals to a child are POSIX")
@pytest.mark.parametrize("signum", ["SIGTERM", "SIGHUP"])
def test_sigterm_during_an_encode_leaves_no_temporary_file(tmp_path, signum):
    """SIGTERM (what `timeout` sends) and SIGHUP (a terminal closed: it left 205 MB
    behind, audit 17-B #2) are handled like Ctrl-C: the hidden temporary file of the
    atomic output is removed and the target is not created."""
    import signal
    import time

    maze_file = tmp_path / "hugek.txt"
    maze_file.write_text(HUGE_K.format(k=10**7))  # about 60 million clauses: runs a while
    out = tmp_path / "out.txt"
    process = subprocess.Popen(
        [sys.executable, "-c", "from satkit import main; main()", "maze", "encode",
         str(maze_file), "-o", str(out)],
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    while not any(p.name.endswith(".tmp") for p in tmp_path.iterdir()):
        assert process.poll() is None, process.stderr.read()
        time.sleep(0.05)  # waits for the writer to start, not a time limit
    process.send_signal(getattr(signal, signum))
    _, err = process.communicate(timeout=120)
    assert "Traceback" not in err
    assert "interrupted: nothing written" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hugek.txt"]


def test_encode_warnings_and_strict(tmp_path):
    maze = tmp_path / "long.txt"
    maze.write_text("START LONGNAME\n\n1\nSTART TREASURES NEXT LONGNAME\nLONGNAME TREASURES NEXT\n")
    result = run("encode", maze)
    assert result.exit_code == 0
    assert re.fullmatch(
        r"warning: .*long\.txt:1: node name 'LONGNAME' is longer.*\n", result.stderr
    )
    assert run("encode", maze, "--quiet").stderr == ""
    out = tmp_path / "out.txt"
    strict = run("encode", maze, "--strict", "-o", out)
    assert strict.exit_code == 1 and strict.stderr.startswith("error: ") and not out.exists()


# --------------------------------------------------------------------------- bad input table
BAD_MAZES = {
    "empty": ("", 1),
    "blank-first-line": ("\nGOLD\n1\n", 1),
    "no-start": ("HOME A\nGOLD\n1\nHOME TREASURES NEXT A\n", 1),
    "node-twice": ("START A A\nGOLD\n1\n", 1),
    "keyword-node": ("START TREASURES\n\n1\n", 1),
    "treasure-twice": ("START A\nGOLD GOLD\n1\n", 2),
    "only-nodes": ("START A\n", 2),
    "no-steps-line": ("START A\nGOLD\n", 3),
    "steps-word": ("START A\nGOLD\nfive\n", 3),
    "steps-negative": ("START A\nGOLD\n-2\n", 3),
    "steps-float": ("START A\nGOLD\n2.0\n", 3),
    "steps-two-numbers": ("START A\nGOLD\n2 3\n", 3),
    "steps-empty": ("START A\nGOLD\n\nSTART TREASURES NEXT A\n", 3),
    "unknown-head": ("START A\nGOLD\n1\nB TREASURES NEXT A\n", 4),
    "unknown-exit": ("START A\nGOLD\n1\nSTART TREASURES NEXT B\n", 4),
    "undeclared-treasure": ("START A\nGOLD\n1\nA TREASURES SILVER NEXT START\n", 4),
    "second-line": (
        "START A\n\n1\nA TREASURES NEXT START\nSTART TREASURES NEXT A\nA TREASURES NEXT\n",
        6,
    ),
    "no-treasures-keyword": ("START A\nGOLD\n1\nA GOLD NEXT START\n", 4),
    "no-next-keyword": ("START A\nGOLD\n1\nA TREASURES GOLD START\n", 4),
    "keywords-swapped": ("START A\nGOLD\n1\nA NEXT START TREASURES GOLD\n", 4),
    "missing-head": ("START A\nGOLD\n1\nTREASURES GOLD NEXT A\n", 4),
    "toll-variant": ("START A\nGOLD\n1\nA TREASURES GOLD TOLLS NEXT START\n", 4),
    "late-error-crlf": (
        "START A\r\nGOLD\r\n1\r\nSTART TREASURES NEXT A\r\n\r\nA TREASURES NEXT Q\r\n",
        6,
    ),
    "lowercase-keywords": ("START A\n\n1\nSTART treasures next A\n", 4),
}


@pytest.mark.parametrize("command", ["encode", "solve"])
@pytest.mark.parametrize("case", sorted(BAD_MAZES))
def test_bad_mazes(tmp_path, case, command):
    text, line = BAD_MAZES[case]
    maze = tmp_path / f"{case}.txt"
    maze.write_text(text)
    out = tmp_path / "out.txt"
    result = run(command, maze, "-o", out)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert re.fullmatch(rf"error: {re.escape(str(maze))}:{line}: [^\n]+\n", result.stderr)
    assert "Traceback" not in result.stderr
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [maze.name]


def test_bad_maze_in_a_real_process_has_no_traceback(tmp_path):
    maze = tmp_path / "bad.txt"
    maze.write_text("START A\nGOLD\n1\nSTART TREASURES NEXT Z\n")
    done = subprocess.run(
        [sys.executable, "-m", "satkit", "maze", "solve", str(maze)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == f"error: {maze}:4: unknown node Z in the NEXT list of START\n"


def test_missing_maze_file(tmp_path):
    result = run("encode", tmp_path / "absent.txt")
    assert result.exit_code == 1
    assert result.stderr == f"error: {tmp_path / 'absent.txt'}: no such file\n"


# --------------------------------------------------------------------------- solve
def test_solve_example():
    result = run("solve", EXAMPLE)
    assert result.exit_code == 10
    assert valid_for(EXAMPLE, result.stdout)
    assert result.stdout.count("\n") == 1 and result.stderr == ""


def test_solve_no_solution():
    result = run("solve", UNSAT)
    assert result.exit_code == 20
    assert result.stdout == "NO SOLUTION\n"


@pytest.mark.parametrize("solver", ["dpll", "minisat22", "m22", "cadical153", "glucose4"])
@pytest.mark.parametrize("encoding", ["assignment", "compact"])
def test_solve_with_each_solver(solver, encoding):
    result = run("solve", EXAMPLE, "--solver", solver, "--encoding", encoding)
    assert result.exit_code == 10, result.output
    assert valid_for(EXAMPLE, result.stdout)


def test_solve_unknown_solver():
    result = run("solve", EXAMPLE, "--solver", "fastsat")
    assert result.exit_code == 2
    assert "unknown solver 'fastsat'" in result.stderr and "minisat22" in result.stderr


def test_solve_shortest_reports_each_k():
    result = run("solve", EXAMPLE, "--shortest")
    assert result.exit_code == 10
    assert result.stdout == "START C G H\n"
    lines = result.stderr.splitlines()
    assert [line.split(":")[0] for line in lines] == ["K=0", "K=1", "K=2", "K=3"]
    assert "unsatisfiable" in lines[0] and lines[3].startswith("K=3: satisfiable (")
    assert run("solve", EXAMPLE, "--shortest", "-q").stderr == ""


def test_solve_json():
    result = run("solve", EXAMPLE, "--json", "--shortest", "--solver", "minisat22")
    assert result.exit_code == 10
    data = json.loads(result.stdout)
    assert data["answer"] == "START C G H" and data["path"] == ["START", "C", "G", "H"]
    assert data["steps"] == 3 and data["solver"] == "minisat22" and data["encoding"] == "assignment"
    assert [a["steps"] for a in data["attempts"]] == [0, 1, 2, 3]
    last = data["attempts"][-1]
    assert last["clauses"] == 9 * 8 // 2 * 4 + 9 * 3 + 6 * 4 + 3 * 3 * 2 + 1 + 3 + 3
    assert last["variables"] == 12 * 4 and last["satisfiable"] is True
    assert {"conflicts", "decisions"} <= set(last["stats"])
    assert data["total_seconds"] >= last["solve_seconds"] >= 0
    assert result.stderr == ""


def test_solve_json_no_solution():
    result = run("solve", UNSAT, "--json", "--encoding", "compact")
    data = json.loads(result.stdout)
    assert result.exit_code == 20 and data["answer"] == "NO SOLUTION" and data["path"] is None


DEAD_END = "START A\nGOLD\n3\nSTART TREASURES NEXT A\nA TREASURES GOLD NEXT\n"


def test_no_solution_at_k_names_a_shorter_walk(tmp_path):
    # the encoding makes every step a move, so a dead end holding the treasure has no walk
    # of exactly K=3 moves; `START A` (1 move) is one decode --maze accepts ("at most K")
    maze = tmp_path / "dead.txt"
    maze.write_text(DEAD_END)
    note = "note: no walk makes exactly K=3 moves (each step of the encoding is a move), but "
    note += "START A collects every treasure in 1 move: `maze solve --shortest` (or -k 1) "
    note += "finds it\n"
    result = run("solve", maze)
    assert result.exit_code == 20 and result.stdout == "NO SOLUTION\n" and result.stderr == note
    data = json.loads(run("solve", maze, "--json").stdout)
    assert data["status"] == "no solution" and data["shorter_walk"] == ["START", "A"]
    assert run("solve", maze, "-q").stderr == ""
    assert run("solve", maze, "--shortest", "-q").stdout == "START A\n"
    dp_in, dp_out = tmp_path / "dead.dp", tmp_path / "dead.out"
    assert run("encode", maze, "-o", dp_in).exit_code == 0
    assert CliRunner().invoke(main, ["dp", str(dp_in), "-o", str(dp_out)]).exit_code == 0
    decoded = run("decode", dp_out, "--maze", maze)
    assert decoded.stdout == "NO SOLUTION\n" and decoded.stderr == note
    # a maze with no walk at all gets no such note
    assert json.loads(run("solve", UNSAT, "--json").stdout)["shorter_walk"] is None
    assert run("solve", UNSAT).stderr == ""


def test_decode_notes_a_walk_encoded_with_another_k(tmp_path):
    dp_out = tmp_path / "k3.out"
    encoded = run("encode", EXAMPLE, "-k", "3").stdout
    solved = CliRunner().invoke(main, ["dp", "-", "-o", str(dp_out)], input=encoded)
    assert solved.exit_code == 0
    result = run("decode", dp_out, "--maze", EXAMPLE)
    path = parse_path_text(result.stdout)
    assert result.exit_code == 0 and not path_problems(read_maze(EXAMPLE), path, 3)
    assert result.stderr == (
        f"note: {dp_out} was encoded with K=3, not {EXAMPLE}'s K=5: its walk was encoded for "
        "3 moves\n"
    )
    assert run("decode", dp_out, "--maze", EXAMPLE, "-k", "3").stderr == ""


def test_solve_steps_override_and_output_file(tmp_path):
    out = tmp_path / "path.txt"
    result = run("solve", SMALL, "--steps", "2", "-o", out)
    assert result.exit_code == 20 and out.read_text() == "NO SOLUTION\n"


def test_solve_seed_is_deterministic():
    first = run("solve", ROOT / "data/maze/gen-60-oneway.txt", "--seed", "5", "--json")
    second = run("solve", ROOT / "data/maze/gen-60-oneway.txt", "--seed", "5", "--json")
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert a["path"] == b["path"] and a["attempts"][0]["stats"] == b["attempts"][0]["stats"]


# --------------------------------------------------------------------------- decode
def _model(cnf_text: str) -> list[int]:
    formula = parse_dimacs(cnf_text, "x.cnf")
    with Minisat22(bootstrap_with=formula.clauses) as solver:
        assert solver.solve()
        return solver.get_model()


@pytest.fixture
def example_files(tmp_path):
    """The example maze encoded both ways, and MiniSat's model in every answer format."""
    dp_in = tmp_path / "ex.dp"
    cnf = tmp_path / "ex.cnf"
    assert run("encode", EXAMPLE, "-o", dp_in).exit_code == 0
    assert run("encode", EXAMPLE, "--to", "dimacs", "-o", cnf).exit_code == 0
    model = _model(cnf.read_text())
    valuation = {abs(lit): lit > 0 for lit in model}
    files = {"dp_in": dp_in, "cnf": cnf}
    files["dp_out"] = tmp_path / "ex.out"
    files["dp_out"].write_text(
        dp_output_text(valuation, parse_dp_input(dp_in.read_text()).back_matter)
    )
    files["competition"] = tmp_path / "ex.comp"
    files["competition"].write_text(competition_text(SolverResult("SAT", model)))
    files["minisat"] = tmp_path / "ex.minisat"
    files["minisat"].write_text(minisat_result_text(SolverResult("SAT", model)))
    return files


def _cut_after(text: str, name: str) -> str:
    """``text`` up to and including the line that names ``name``."""
    lines = text.splitlines(keepends=True)
    last = next(i for i, line in enumerate(lines) if line.rstrip().endswith(" " + name))
    return "".join(lines[: last + 1])


@pytest.mark.parametrize(
    ("last_line", "sign"),
    [
        ("At(H,3)", "the answer assigns atoms up to 72 and the key names none above 36"),
        (None, "At atoms of time K=3 and 9 of time 0"),  # just after the true At(N,3)
        ("Has(GOLD,3)", "the answer assigns atoms up to 72 and the key names none above"),
    ],
)
def test_a_key_cut_at_a_line_end_gets_a_warning(example_files, tmp_path, last_line, sign):
    # a DP output cut inside its key read as the key of a shorter walk that holds no
    # treasure, silently (audit 23-C #2): the walk is still printed, with a warning
    whole = run("decode", example_files["dp_out"])
    assert whole.exit_code == 0 and "cut short" not in whole.stderr
    if last_line is None:
        last_line = f"At({whole.stdout.split()[3]},3)"
        assert last_line != "At(H,3)"  # (H is the last node: that cut is the first case)
    cut = tmp_path / "cut.out"
    cut.write_text(_cut_after(example_files["dp_out"].read_text(), last_line))
    result = run("decode", cut)
    assert result.exit_code == 0, result.output
    assert sign in result.stderr and "if the key was cut short, so is this walk" in result.stderr
    assert result.stderr.count("\n") == 1
    assert whole.stdout.startswith(result.stdout.rstrip("\n"))
    # with the maze, the walk is checked instead
    checked = run("decode", cut, "--maze", EXAMPLE)
    assert "cut short" not in checked.stderr


def test_a_cnf_whose_names_stop_early_gets_the_warning(example_files, tmp_path):
    cnf = example_files["cnf"].read_text().splitlines(keepends=True)
    kept = [line for line in cnf if not re.search(r"Has\(|At\([A-Z]+,[45]\)", line)]
    cut = tmp_path / "cut.cnf"
    cut.write_text("".join(kept))
    result = run("decode", example_files["competition"], "--cnf", cut)
    assert result.exit_code == 0, result.output
    assert "the key names none above" in result.stderr
    assert "cut short" not in run("decode", example_files["competition"], "--cnf",
                                   example_files["cnf"]).stderr  # fmt: skip


def test_decode_dp_output(example_files):
    result = run("decode", example_files["dp_out"])
    assert result.exit_code == 0 and valid_for(EXAMPLE, result.stdout)
    again = run(
        "decode", example_files["dp_out"], "--maze", EXAMPLE, "--cnf", example_files["dp_in"]
    )
    assert again.stdout == result.stdout


@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_decode_reads_a_key_whose_lines_end_in_cr(tmp_path, example_files, end):
    # satkit dp copies a CR-ended key byte for byte; the back end used to split the key
    # at LF only and said "no At(N,0) atom is true" of a valid answer
    text = example_files["dp_out"].read_text().replace("\n", end)
    answer = tmp_path / "cr.out"
    answer.write_bytes(text.encode())
    plain = run("decode", example_files["dp_out"]).stdout
    for extra in ([], ["--maze", EXAMPLE]):
        result = run("decode", answer, *extra)
        assert result.exit_code == 0, result.output
        assert result.stdout == plain
    crlf_input = tmp_path / "cr.dp"
    crlf_input.write_bytes(example_files["dp_in"].read_text().replace("\n", end).encode())
    result = run("decode", example_files["competition"], "--cnf", crlf_input)
    assert result.exit_code == 0, result.output
    assert valid_for(EXAMPLE, result.stdout)


@pytest.mark.parametrize("kind", ["competition", "minisat"])
@pytest.mark.parametrize("cnf", ["cnf", "dp_in"])
def test_decode_solver_results(example_files, kind, cnf):
    result = run("decode", example_files[kind], "--cnf", example_files[cnf], "--maze", EXAMPLE)
    assert result.exit_code == 0, result.output
    assert valid_for(EXAMPLE, result.stdout)


def test_decode_trim(example_files):
    full = run("decode", example_files["dp_out"]).stdout.split()
    trimmed = run("decode", example_files["dp_out"], "--trim").stdout.split()
    with_maze = run("decode", example_files["dp_out"], "--trim", "--maze", EXAMPLE).stdout.split()
    assert trimmed == with_maze == full[: len(trimmed)]
    assert len(trimmed) <= len(full)


def test_decode_result_needs_cnf(example_files):
    result = run("decode", example_files["competition"])
    assert result.exit_code == 1
    assert "give the CNF it solved with --cnf" in result.stderr


def test_decode_unsat_and_unknown(tmp_path, example_files):
    unsat = tmp_path / "u.comp"
    unsat.write_text("s UNSATISFIABLE\n")
    result = run("decode", unsat, "--cnf", example_files["cnf"])
    assert result.exit_code == 0 and result.stdout == "NO SOLUTION\n"
    # ... but the maze has a walk, so with --maze the lie is caught
    caught = run("decode", unsat, "--cnf", example_files["cnf"], "--maze", EXAMPLE)
    assert caught.exit_code == 1 and "but" in caught.stderr and "has a walk" in caught.stderr
    # another maze's walk says nothing of this answer: the maze that does not fit is named,
    # as for a SAT answer (audit 17-D #3)
    small = Path(__file__).resolve().parents[1] / "data" / "maze" / "small.txt"
    other = run("decode", unsat, "--cnf", example_files["cnf"], "--maze", small)
    assert other.exit_code == 1 and "which maze" in other.stderr
    assert "has a walk" not in other.stderr
    unknown = tmp_path / "x.comp"
    unknown.write_text("s UNKNOWN\n")
    result = run("decode", unknown, "--cnf", example_files["cnf"])
    assert result.exit_code == 1 and "UNKNOWN" in result.stderr


def test_decode_wrong_model_is_an_error(tmp_path, example_files):
    wrong = tmp_path / "wrong.comp"
    wrong.write_text(competition_text(SolverResult("SAT", [-v for v in range(1, 73)])))
    out = tmp_path / "path.txt"
    result = run("decode", wrong, "--cnf", example_files["cnf"], "-o", out)
    assert result.exit_code == 1 and "does not satisfy clause" in result.stderr
    assert not out.exists()


def test_decode_path_invalid_for_the_maze(example_files):
    other = ROOT / "data" / "maze" / "gen-30.txt"
    result = run("decode", example_files["dp_out"], "--maze", other)
    assert result.exit_code == 1 and "which maze" in result.stderr


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1 T\n2 F\n", "no line '0'"),
        ("1 T\n2 N\n0\n", "must be T or F"),
        ("1 T\n0\nfree text only\n", "no key names the At(N,I) atoms"),
        ("1 T\n2 T\n0\n1 At(START,0)\n2 At(A,0)\n", "at START and A at time 0"),
        ("1 F\n2 T\n0\n1 At(START,0)\n2 At(A,0)\n", "starts at A"),
        ("1 T\n2 F\n0\n1 At(START,0)\n2 At(START,1)\n", "no At(N,1) atom is true"),
        ("1 T\n2 F\n0\n1 At(START,0)\n2 Has(GOLD,0)\n", "does not hold GOLD"),
        ("1 T\n0\n1 At(START,0)\n1 At(A,0)\n", "atom 1 is named twice"),
    ],
)
def test_decode_bad_dp_outputs(tmp_path, text, fragment):
    bad = tmp_path / "bad.out"
    bad.write_text(text)
    result = run("decode", bad)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {bad}") and fragment in result.stderr
    assert result.stderr.count("\n") == 1


# --------------------------------------------------------------------------- generate
def test_generate_is_deterministic_and_readable(tmp_path):
    args = ("generate", "--nodes", "30", "--treasures", "4", "--steps", "12", "--seed", "1")
    first = run(*args)
    assert first.exit_code == 0
    assert first.stdout == run(*args).stdout
    assert first.stdout == (ROOT / "data" / "maze" / "gen-30.txt").read_text()
    out = tmp_path / "g.txt"
    assert run(*args, "--one-way", "0.5", "--degree", "2", "-o", out).exit_code == 0
    assert read_maze(out).warnings == []


def test_generate_planted():
    args = ("generate", "--nodes", "120", "--treasures", "6", "--steps", "15", "--planted")
    result = run(*args, "--seed", "4")
    assert result.exit_code == 0
    solved = run("solve", "-", "-s", "minisat22", stdin=result.stdout)
    assert solved.exit_code == 10


@pytest.mark.parametrize(
    "args",
    [
        ("--nodes", "5", "--treasures", "1", "--steps", "0", "--planted"),
        ("--nodes", "0", "--treasures", "0", "--steps", "1"),
        ("--nodes", "1", "--treasures", "2", "--steps", "1"),
        ("--nodes", "5", "--treasures", "1", "--steps", "1", "--one-way", "2"),
        ("--nodes", "5", "--treasures", "1"),
    ],
)
def test_generate_usage_errors(args):
    assert run("generate", *args).exit_code == 2


# --------------------------------------------------------------------------- show
def test_show_dot_to_stdout():
    result = run("show", EXAMPLE, "-o", "-", "--solve")
    assert result.exit_code == 0
    assert result.stdout.startswith("digraph maze {") and "penwidth" in result.stdout


def test_show_with_path_file(tmp_path):
    path = tmp_path / "be_out.txt"
    path.write_bytes(b"\xef\xbb\xbfSTART C G H G H")  # BOM, no newline: as Junxiao-Zhao writes it
    out = tmp_path / "m.png"
    result = run("show", EXAMPLE, "--path", path, "-o", out, "--engine", "matplotlib")
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"\x89PNG")


def test_show_invalid_path_warns_or_fails(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("START H\n")
    result = run("show", EXAMPLE, "--path", path, "-o", tmp_path / "m.dot")
    assert result.exit_code == 0 and "warning:" in result.stderr and "no exit" in result.stderr
    strict = run("show", EXAMPLE, "--path", path, "-o", tmp_path / "n.dot", "--strict")
    assert strict.exit_code == 1 and not (tmp_path / "n.dot").exists()


def test_show_usage_errors(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("START A\n")
    assert run("show", EXAMPLE, "--path", path, "--solve", "-o", "-").exit_code == 2
    assert run("show", EXAMPLE, "-o", "-", "--format", "png").exit_code == 2
    bad = run("show", EXAMPLE, "-o", tmp_path / "m.jpg")  # as --format jpg (audit 22-C #5)
    assert bad.exit_code == 2 and ".dot, .svg or .png" in bad.stderr
    assert not (tmp_path / "m.jpg").exists()
    assert run("show", EXAMPLE, "-o", tmp_path / "m.jpg", "--format", "svg").exit_code == 0


def test_show_no_solution_path(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("NO SOLUTION\n")
    result = run("show", EXAMPLE, "--path", path, "-o", tmp_path / "m.dot")
    assert result.exit_code == 0 and "NO SOLUTION" in result.stderr
    assert "penwidth" not in (tmp_path / "m.dot").read_text()


def test_decode_takes_the_key_from_the_cnf_when_the_output_has_none(tmp_path, example_files):
    bare = tmp_path / "bare.out"
    text = example_files["dp_out"].read_text()
    bare.write_text(text[: text.index("\n0\n") + 3])  # valuation and 0, no back matter
    alone = run("decode", bare)
    assert alone.exit_code == 1 and "no key names the At" in alone.stderr
    for cnf in ("dp_in", "cnf"):
        result = run("decode", bare, "--cnf", example_files[cnf], "--maze", EXAMPLE)
        assert result.exit_code == 0 and valid_for(EXAMPLE, result.stdout)


def test_decode_refuses_a_dp_output_whose_key_disagrees_with_the_cnf(tmp_path, example_files):
    # stale or mismatched files: decoding by either key would print a path the other
    # file does not describe (audit 16-B)
    text = example_files["dp_out"].read_text()
    swapped = tmp_path / "swapped.out"
    swapped.write_text(
        text.replace(" At(A,1)\n", " At(@,1)\n").replace(" At(B,1)\n", " At(A,1)\n")
        .replace(" At(@,1)\n", " At(B,1)\n")
    )  # fmt: skip
    assert swapped.read_text() != text
    for cnf in ("dp_in", "cnf"):
        result = run("decode", swapped, "--cnf", example_files[cnf])
        assert result.exit_code == 1 and result.stdout == ""
        line = next(n for n, row in enumerate(text.splitlines(), 1) if row.endswith(" At(A,1)"))
        assert result.stderr.startswith(f"error: {swapped}:{line}: its key names atom ")
        assert ", but " in result.stderr and "the answer is not for that CNF" in result.stderr
        # the same output with its own key decodes as before
        same = run("decode", example_files["dp_out"], "--cnf", example_files[cnf])
        assert same.exit_code == 0 and valid_for(EXAMPLE, same.stdout)


def test_decode_takes_a_dp_output_whose_key_names_only_some_atoms(tmp_path, example_files):
    # a key naming only the true atoms does not disagree with the CNF's (review 16)
    lines = example_files["dp_out"].read_text().split("\n")
    separator = lines.index("0")
    true = {int(row.split()[0]) for row in lines[:separator] if row.endswith(" T")}
    key = [row for row in lines[separator + 1 :] if row and int(row.split()[0]) in true]
    partial = tmp_path / "partial.out"
    partial.write_text("\n".join([*lines[: separator + 1], *key]) + "\n")
    for cnf in ("dp_in", "cnf"):
        result = run("decode", partial, "--cnf", example_files[cnf])
        assert result.exit_code == 0 and valid_for(EXAMPLE, result.stdout), result.stderr


def test_decode_blames_the_cnf_for_a_bad_key(tmp_path, example_files):
    bare = tmp_path / "bare.out"
    text = example_files["dp_out"].read_text()
    bare.write_text(text[: text.index("\n0\n") + 3])
    cnf = tmp_path / "dup.txt"
    cnf.write_text("1 2\n0\n1 At(START,0)\n2 At(START,0)\n")
    result = run("decode", bare, "--cnf", cnf)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {cnf}:4: At(START,0) is named twice")
    # the same key carried through DIMACS: the line of its c back-matter comment
    carried = tmp_path / "dup.cnf"
    carried.write_text(
        'c made by hand\np cnf 2 1\nc back-matter "1 At(START,0)\\n"\n'
        'c back-matter "2 At(START,0)\\n"\n1 2 0\n'
    )
    result = run("decode", bare, "--cnf", carried)
    assert result.stderr.startswith(f"error: {carried}:4: At(START,0) is named twice")


def test_a_key_naming_an_atom_twice_beside_no_solution_is_a_warning_with_cnf_too(tmp_path):
    # S2ang's front end names Has(GOLD,0) twice: decode alone warned and printed NO
    # SOLUTION, while the same answer with --cnf, or MiniSat's UNSAT of its DIMACS, was an
    # error (audit 21-B #4); a maze to check the NO SOLUTION against still refuses the key
    cnf = tmp_path / "dup.txt"
    cnf.write_text("1\n-1\n0\n1 At(START,0)\n2 At(START,0)\n")
    unsat = tmp_path / "unsat.out"
    unsat.write_text("0\n1 At(START,0)\n2 At(START,0)\n")
    result_file = tmp_path / "minisat.res"
    result_file.write_text("UNSAT\n")
    for answer, extra in ((unsat, []), (unsat, ["--cnf", cnf]), (result_file, ["--cnf", cnf])):
        result = run("decode", answer, *extra)
        assert (result.exit_code, result.stdout) == (0, "NO SOLUTION\n"), result.stderr
        blamed = f"{cnf}:5" if extra else f"{unsat}:3"
        assert result.stderr == (
            f"warning: {blamed}: At(START,0) is named twice in the key (atoms 1 and 2)\n"
        )
    maze = tmp_path / "maze.txt"
    maze.write_text(EXAMPLE.read_text())
    result = run("decode", result_file, "--cnf", cnf, "--maze", maze)
    assert result.exit_code == 1 and "is named twice" in result.stderr
    model = tmp_path / "sat.res"
    model.write_text("SAT\n1 -2 0\n")
    result = run("decode", model, "--cnf", cnf)  # a walk needs a sound key
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {cnf}:5: At(START,0) is named twice")


def test_decode_prints_dp_output_warnings(tmp_path, example_files):
    spaced = tmp_path / "spaced.out"
    spaced.write_text("\n" + example_files["dp_out"].read_text())
    result = run("decode", spaced)
    assert result.exit_code == 0 and valid_for(EXAMPLE, result.stdout)
    assert result.stderr.startswith(f"warning: {spaced}:1: blank line")
    assert run("decode", spaced, "-q").stderr == ""


def test_encode_interrupted_leaves_nothing(tmp_path, monkeypatch):
    def interrupted(self, handle, key_form="names"):
        handle.write("-1 -2\n")
        raise KeyboardInterrupt

    monkeypatch.setattr("maze.cnf.MazeCNF.write_dp_input", interrupted)
    out = tmp_path / "out.txt"
    result = run("encode", EXAMPLE, "-o", out)
    assert result.exit_code == 130 and result.stderr == "interrupted: nothing written\n"
    assert list(tmp_path.iterdir()) == []
    # a stream keeps what it was given: the message must not say "nothing written"
    streamed = run("encode", EXAMPLE)
    assert streamed.exit_code == 130 and streamed.stdout == "-1 -2\n"
    assert streamed.stderr == "interrupted: the output on stdout is incomplete\n"
    device = run("encode", EXAMPLE, "-o", "/dev/null")
    assert device.stderr == "interrupted: /dev/null is incomplete\n"


def test_solve_interrupted(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("maze.cli.solve_maze", interrupted)
    result = run("solve", EXAMPLE)
    assert result.exit_code == 0 and result.stdout == "" and "interrupted" in result.stderr


def test_solve_suggests_compact_for_big_mazes(monkeypatch):
    monkeypatch.setattr("maze.cli.BIG_ENCODING", 300)
    result = run("solve", EXAMPLE)
    assert result.exit_code == 10
    assert result.stderr == (
        f"warning: {EXAMPLE}: 334 clauses with the assignment encoding; "
        "--encoding compact gives 301\n"
    )
    assert run("solve", EXAMPLE, "--encoding", "compact").stderr == ""


@pytest.mark.parametrize("name", ["dpll", "dpll:cdcl"])
def test_maze_solve_gives_our_cdcl_the_maze_options(name: str) -> None:
    from maze.cli import _factory
    from maze.pipeline import DPLL_OPTIONS

    solver = _factory(name, seed=3)([[1, 2], [-1]])
    engine = solver._live()
    assert engine.luby_unit == DPLL_OPTIONS["luby_unit"] != 1000
    assert solver.seed == 3 and solver.solve() is True
    solver.delete()


@pytest.mark.parametrize(
    "args",
    [
        ["encode", EXAMPLE],
        ["solve", EXAMPLE],
        ["show", EXAMPLE, "--solve"],
        ["decode", EXAMPLE, "--maze", EXAMPLE],
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_the_work(tmp_path, monkeypatch, args):
    def unread(*_args, **_kwargs):
        raise AssertionError("the work began before the output was checked")

    monkeypatch.setattr("maze.cli._read", unread)
    monkeypatch.setattr("maze.cli.read_text", unread)
    missing = tmp_path / "missing" / "out.svg"
    result = run(*args, "-o", missing)
    assert result.exit_code == 1
    assert result.stderr == f"error: {missing}: output folder does not exist\n"


# ------------------------------------------------- answers of external programs (audit 12)
def program(tmp_path: Path, name: str, body: str) -> str:
    """``bin:PATH`` of an executable shell script."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return f"bin:{path}"


def test_a_false_no_solution_from_a_program_is_an_error(tmp_path):
    liar = program(tmp_path, "liar", 'echo "s UNSATISFIABLE"; exit 20')
    for extra in ((), ("--shortest",)):
        result = run("solve", EXAMPLE, "--solver", liar, *extra)
        assert result.exit_code == 1 and result.stdout.count("NO SOLUTION") == 0
        assert re.search(r"^error: .*has no solution, but the layered search finds the walk",
                         result.stderr, re.MULTILINE)  # fmt: skip


def test_no_answer_from_a_program_is_unknown_with_exit_0(tmp_path):
    for body in ('echo "s UNKNOWN"', 'echo "c UNKNOWN"'):  # CaDiCaL stopped by a limit
        unknown = program(tmp_path, "unknown", body)
        result = run("solve", EXAMPLE, "--solver", unknown)
        assert (result.exit_code, result.stdout) == (0, "")
        assert "gave no answer for K=5" in result.stderr and "Traceback" not in result.stderr
        data = json.loads(run("solve", EXAMPLE, "--solver", unknown, "--json").stdout)
        assert (data["status"], data["answer"], data["attempts"][0]["satisfiable"]) == (
            "unknown", None, None)  # fmt: skip


@pytest.mark.parametrize(
    ("body", "message"),
    [("exit 1", "exited with code 1"), ("kill -SEGV $$", "killed by signal 11"),
     ('echo "s UNKNOWN"; exit 3', "exited with code 3")],
)  # fmt: skip
def test_a_program_that_fails_is_one_error_line(tmp_path, body, message):
    result = run("solve", EXAMPLE, "--solver", program(tmp_path, "broken", body))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("error: bin:") and message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_json_after_an_interrupt_holds_the_attempts_so_far(monkeypatch):
    import maze.cli

    def interrupted(maze, factory, *, on_attempt, **options):
        from maze.pipeline import attempt

        record, _ = attempt(maze, 0, factory)
        on_attempt(record)
        raise KeyboardInterrupt

    monkeypatch.setattr(maze.cli, "solve_maze", interrupted)
    result = run("solve", EXAMPLE, "--json", "--shortest")
    assert result.exit_code == 0 and "interrupted" in result.stderr
    data = json.loads(result.stdout)
    assert data["status"] == "unknown" and [a["steps"] for a in data["attempts"]] == [0]


def test_sigterm_kills_the_program_maze_solve_started(tmp_path, running):
    pids = tmp_path / "pids"
    slow = program(tmp_path, "slow", f"echo $$ >> {pids}; sleep 30 & echo $! >> {pids}; wait")
    process = subprocess.Popen(
        [sys.executable, "-c", "from satkit import main; main()", "maze", "solve", str(EXAMPLE),
         "--solver", slow],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    while process.poll() is None and len(pids.read_text().split() if pids.exists() else ()) < 2:
        pass  # until the script has started its child
    process.terminate()
    out, err = process.communicate(timeout=120)
    assert (process.returncode, out) == (0, "") and "interrupted" in err
    assert not any(running(int(pid)) for pid in pids.read_text().split())


# ------------------------------------------------------- sizes, K and inputs (audit 12)
def test_shortest_checks_each_k_as_it_is_reached(monkeypatch):
    import maze.cli

    monkeypatch.setattr(maze.cli, "available_memory", lambda: 10**9)
    result = run("solve", EXAMPLE, "--shortest", "-k", "10000000", "-q")  # found at K=3
    assert (result.exit_code, result.stdout) == (10, "START C G H\n")


def test_size_refusal_under_compact_does_not_suggest_compact():
    result = run("solve", EXAMPLE, "-k", "2000000000", "--encoding", "compact")
    assert result.exit_code == 1 and "(lower K)" in result.stderr
    result = run("solve", EXAMPLE, "-k", "2000000000")
    # whole GB however big: 160 bytes a clause and 1,000 a variable for our solver
    assert "and 24,000,000,012 variables, which need at least 42,240 GB of memory" \
        in result.stderr, result.stderr


def test_decode_reads_the_key_carried_by_a_converted_dimacs_file(tmp_path):
    clauses_file, cnf = tmp_path / "clauses.txt", tmp_path / "clauses.cnf"
    assert run("encode", EXAMPLE, "-o", clauses_file).exit_code == 0
    assert CliRunner().invoke(main, ["convert", str(clauses_file), "-o", str(cnf)]).exit_code == 0
    assert "c back-matter" in cnf.read_text() and "c var" not in cnf.read_text()
    with Minisat22(bootstrap_with=parse_dimacs(cnf.read_text(), "cnf").clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    answer = tmp_path / "answer.txt"
    answer.write_text(competition_text(SolverResult("SAT", model)))
    result = run("decode", answer, "--cnf", cnf, "--maze", EXAMPLE)
    assert result.exit_code == 0 and valid_for(EXAMPLE, result.stdout.strip())


def test_a_walk_encoded_for_a_larger_k_is_checked_against_the_maze_s_k(tmp_path):
    # README: "an answer encoded with another K than the maze's gets a note saying so"; a
    # walk of more moves answers the maze only if it holds every treasure within the maze's
    # K (the decoder's tests have one that does): this one needs 6 of the maze's 5
    dp_in, dp_out = tmp_path / "k7.txt", tmp_path / "k7.out"
    assert run("encode", EXAMPLE, "-k", "7", "-o", dp_in).exit_code == 0
    assert CliRunner().invoke(main, ["dp", str(dp_in), "-o", str(dp_out)]).exit_code == 0
    result = run("decode", dp_out, "--maze", EXAMPLE)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        f"error: {dp_out}: the walk START A START A START C F C holds every treasure only after"
        f" 6 moves, and {EXAMPLE} allows K=5 (the answer was encoded with K=7: -k 7 checks it"
        " against the maze with that K)\n"
    )
    trimmed = run("decode", dp_out, "--maze", EXAMPLE, "-k", "7", "--trim")  # checked, trimmed
    path = parse_path_text(trimmed.stdout)
    assert trimmed.exit_code == 0 and path is not None
    assert not walk_problems(read_maze(EXAMPLE).with_steps(7), path)
    result = run("decode", dp_out, "--maze", EXAMPLE, "-k", "7")  # the K it was encoded with
    assert result.exit_code == 0 and len(result.stdout.split()) == 8 and result.stderr == ""
    result = run("decode", dp_out, "--maze", EXAMPLE, "-k", "5")
    assert result.exit_code == 1 and "encoded with K=7" in result.stderr
    long_path = tmp_path / "long.txt"
    long_path.write_text("START C G H G H G H G\n")
    result = run("show", EXAMPLE, "--path", long_path, "--strict", "-o", tmp_path / "x.dot")
    assert result.exit_code == 1 and "8 moves, more than the K=5" in result.stderr
    assert not (tmp_path / "x.dot").exists()


@pytest.mark.parametrize("degree", ["inf", "nan", "1e400", "-1"])
def test_generate_refuses_a_degree_that_is_no_number_of_neighbours(degree):
    result = run("generate", "--nodes", "5", "--treasures", "2", "--steps", "3",
                 "--degree", degree)  # fmt: skip
    assert result.exit_code == 2 and "finite number" in result.stderr


def test_stdin_is_given_to_one_input_only():
    for args in (("decode", "-", "--maze", "-"), ("decode", "-", "--cnf", "-"),
                 ("show", "-", "--path", "-", "-o", "-")):  # fmt: skip
        result = run(*args, stdin="")
        assert result.exit_code == 2 and "standard input can be read only once" in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [("", ":1: empty input: no answer to decode"),
     ("c hello\ns SATISFIABLE\n", ":2: the solver says SATISFIABLE but gives no model"),
     ("s SATISFIABLE\nv 0\n", ":1: the solver says SATISFIABLE but gives no model"),
     ("\nSAT\n", ":2: the solver says SATISFIABLE but gives no model"),
     ("c x\ns UNKNOWN\n", ":2: the solver gave no answer (UNKNOWN)"),
     ("INDET\n", ":1: the solver gave no answer (UNKNOWN)")],
)  # fmt: skip
def test_decode_says_what_is_missing_from_an_answer(tmp_path, text, message):
    # (with the line that says so: audit 23-C)
    cnf, answer = tmp_path / "ex.cnf", tmp_path / "answer.txt"
    assert run("encode", EXAMPLE, "--to", "dimacs", "-o", cnf).exit_code == 0
    answer.write_text(text)
    result = run("decode", answer, "--cnf", cnf)
    assert result.exit_code == 1 and f"{answer}{message}" in result.stderr, result.stderr


def test_decode_names_a_solvers_error_message(tmp_path):
    # `picosat x.cnf > out` keeps picosat's parse error (stdout, exit 0) as the "answer"
    out = tmp_path / "out"
    out.write_text("x.cnf:1: missing or invalid 'p cnf <variables> <clauses>' header\n")
    result = run("decode", out)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {out}:1: this is a solver's error message, not an answer: x.cnf:1: missing "
        "or invalid 'p cnf <variables> <clauses>' header\n"
    )


def test_encode_to_a_cnf_name_writes_dimacs(tmp_path):
    # a .cnf is DIMACS to every reader, so encode writes DIMACS there; the DP input under
    # that name, which every reader would misread, is a usage error (audit 23-C #1)
    out = tmp_path / "ex.cnf"
    assert run("encode", EXAMPLE, "-o", out).exit_code == 0
    assert "p cnf 72 334" in out.read_text()
    refused = run("encode", EXAMPLE, "-o", tmp_path / "x.cnf", "--to", "assignment")
    assert refused.exit_code == 2
    assert "x.cnf is named as a DIMACS file" in refused.stderr
    assert not (tmp_path / "x.cnf").exists()
    # and --key node-time there says what to change, not to add --to assignment (review 23)
    node_time = run("encode", EXAMPLE, "-o", tmp_path / "x.cnf", "--key", "node-time")
    assert node_time.exit_code == 2 and "--to assignment" not in node_time.stderr
    assert "under a name other than" in node_time.stderr
    assert "(--to assignment)" in run("encode", EXAMPLE, "--to", "dimacs", "--key",
                                      "node-time").stderr  # fmt: skip


def test_shortest_size_refusal_names_the_k_not_the_file_line(monkeypatch):
    import maze.cli

    monkeypatch.setattr(maze.cli, "available_memory", lambda: 15_000)
    result = run("solve", EXAMPLE, "--shortest")
    assert result.exit_code == 1 and f"error: {EXAMPLE}: K gives" in result.stderr


def test_ctrl_c_reported_by_a_pysat_solver_is_an_interrupt(monkeypatch):
    # PySAT's own SIGINT handler turns Ctrl-C into pysolvers.error, not KeyboardInterrupt
    import pysolvers

    import maze.cli

    def interrupted(*args, **kwargs):
        raise pysolvers.error("Caught keyboard interrupt")

    monkeypatch.setattr(maze.cli, "solve_maze", interrupted)
    result = run("solve", EXAMPLE, "--solver", "minisat22", "--json")
    assert result.exit_code == 0 and "interrupted" in result.stderr
    assert json.loads(result.stdout)["status"] == "unknown"


def test_decode_confirms_no_solution_within_the_time_solve_gives(
    tmp_path, monkeypatch, example_files
):
    cnf = tmp_path / "u.cnf"
    assert run("encode", UNSAT, "--to", "dimacs", "-o", cnf).exit_code == 0
    unsat = tmp_path / "u.comp"
    unsat.write_text("s UNSATISFIABLE\n")
    confirmed = run("decode", unsat, "--cnf", cnf, "--maze", UNSAT)
    assert confirmed.exit_code == 0 and confirmed.stdout == "NO SOLUTION\n"
    assert confirmed.stderr == ""
    # a search that runs out of time leaves the answer standing, and says so
    monkeypatch.setattr("maze.cli.CONFIRM_SECONDS", 0.0)
    # (EXAMPLE has a walk: the search that would catch the lie is cut short)
    for maze, solved in ((UNSAT, cnf), (EXAMPLE, example_files["cnf"])):
        cut = run("decode", unsat, "--cnf", solved, "--maze", maze)
        assert cut.exit_code == 0 and cut.stdout == "NO SOLUTION\n"
        assert "NO SOLUTION for K=" in cut.stderr and "is not confirmed" in cut.stderr
        assert "stopped after 0 s" in cut.stderr
    quiet = run("decode", unsat, "--cnf", example_files["cnf"], "--maze", EXAMPLE, "-q")
    assert quiet.exit_code == 0 and quiet.stderr == ""


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "{d}"], ["encode", "{d}"], ["decode", "{d}"], ["show", "{d}", "-o", "{x}"],
        ["decode", "{dp}", "--maze", "{d}"], ["decode", "{dp}", "--cnf", "{d}"],
        ["show", EXAMPLE, "--path", "{d}", "-o", "{x}"],
    ],
)  # fmt: skip
def test_a_directory_as_an_input_is_one_error_line(tmp_path, example_files, args):
    # as in solve, dp, convert and stats (click's own check made these a usage block, exit 2)
    folder = tmp_path / "d"
    folder.mkdir()
    names = {"d": folder, "x": tmp_path / "x.dot", "dp": example_files["dp_out"]}
    result = run(*(str(a).format(**names) for a in args))
    assert result.exit_code == 1
    assert result.stderr == f"error: {folder}: is a directory, not a file\n"


def test_an_unavailable_solver_is_a_usage_error_as_in_crosscheck(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    result = run("solve", EXAMPLE, "--solver", "bin:cadical")
    assert result.exit_code == 2 and "not available" in result.stderr


def test_solve_help_names_every_kind_of_solver_it_takes():
    text = run("solve", "--help").stdout
    kinds = ("dpll:cdcl/vsids-numbered", "dpll:classic", "minisat22", "bin:cadical", "bin:PROGRAM")
    assert all(kind in text for kind in kinds)


def test_encode_dimacs_of_a_maze_whose_name_holds_a_line_break(tmp_path):
    odd = tmp_path / "two\nlines.txt"
    odd.write_text(EXAMPLE.read_text())
    out = tmp_path / "odd.cnf"
    assert run("encode", odd, "--to", "dimacs", "-o", out).exit_code == 0
    formula = parse_dimacs(out.read_text(), strict=True)  # every line before p cnf is a comment
    assert formula.comments[:2] == [f"maze {tmp_path}/two", "lines.txt: 9 nodes, 3 treasures, K=5"]


def test_decode_says_when_the_answer_was_encoded_for_another_k(tmp_path):
    # example.txt (K=5) has walks; with K=2 it has none. A K=2 answer used to print a
    # "confirmed" NO SOLUTION for the maze without a word, and -k 5 was ignored
    cnf = tmp_path / "ex2.cnf"
    assert run("encode", EXAMPLE, "-k", "2", "--to", "dimacs", "-o", cnf).exit_code == 0
    answer = tmp_path / "ex2.out"
    answer.write_text("s UNSATISFIABLE\n")
    plain = run("decode", answer, "--cnf", cnf, "--maze", EXAMPLE)
    assert plain.exit_code == 0 and plain.stdout == "NO SOLUTION\n"
    assert plain.stderr == (
        f"note: ex2.out was encoded with K=2, not {EXAMPLE}'s K=5: its NO SOLUTION is for K=2\n"
    ).replace("ex2.out", str(answer))
    assert run("decode", answer, "--cnf", cnf, "--maze", EXAMPLE, "-k", "2").stderr == ""
    told = run("decode", answer, "--cnf", cnf, "--maze", EXAMPLE, "-k", "5")
    assert told.exit_code == 1 and told.stdout == ""
    assert told.stderr == (
        f"error: {answer}: the answer was encoded with K=2 (its key names the times 0..2),"
        " not with the K=5 given\n"
    )
    # the same check for a walk, and for a DP output (the key in its back matter)
    dp_in, dp_out = tmp_path / "ex3.dp", tmp_path / "ex3.out"
    assert run("encode", EXAMPLE, "-k", "3", "-o", dp_in).exit_code == 0
    assert CliRunner().invoke(main, ["dp", str(dp_in), "-o", str(dp_out)]).exit_code == 0
    walk = run("decode", dp_out, "--maze", EXAMPLE, "-k", "3")
    assert walk.exit_code == 0 and walk.stderr == ""
    path = parse_path_text(walk.stdout)
    assert path is not None and not path_problems(read_maze(EXAMPLE).with_steps(3), path)
    wrong = run("decode", dp_out, "--maze", EXAMPLE, "-k", "4")
    assert wrong.exit_code == 1
    assert "encoded with K=3" in wrong.stderr and "K=4 given" in wrong.stderr


def test_a_decode_error_cites_the_key_line_in_the_file_that_holds_it(tmp_path):
    # the key came from the CNF (--cnf), but its line number used to be given as a line of
    # the solver's 2-line result file ("small-edit2.out:63")
    encoded = parse_dp_input(run("encode", SMALL).stdout, "small.dp")
    atom = next(
        int(line.split()[0])
        for line in encoded.back_matter.splitlines()
        if line.endswith("Has(GOLD,3)")
    )
    encoded.clauses = [c for c in encoded.clauses if atom not in c and -atom not in c]
    encoded.clauses.append([-atom])  # a formula whose models do not hold GOLD at K
    from formats.assignment import dp_input_text

    dp_in = tmp_path / "edit.dp"
    dp_in.write_text(dp_input_text(encoded))
    line = dp_in.read_text().splitlines().index(f"{atom} Has(GOLD,3)") + 1
    with Minisat22(bootstrap_with=encoded.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    answer = tmp_path / "edit.out"
    answer.write_text(competition_text(SolverResult("SAT", model)))
    result = run("decode", answer, "--cnf", dp_in)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {answer}: the valuation does not hold GOLD at time K=3"
        f" (atom {atom} is named on line {line} of {dp_in})\n"
    )
    # in a DP output the key is the file's own back matter: its line is the file's
    dp_out = tmp_path / "edit.dpout"
    dp_out.write_text(dp_output_text({abs(x): x > 0 for x in model}, encoded.back_matter))
    own = run("decode", dp_out)
    out_line = dp_out.read_text().splitlines().index(f"{atom} Has(GOLD,3)") + 1
    message = "the valuation does not hold GOLD at time K=3"
    assert own.stderr == f"error: {dp_out}:{out_line}: {message}\n"


def test_decode_tells_minisat_screen_output_and_reads_past_foreign_comments(
    tmp_path, example_files
):
    cnf = example_files["cnf"]
    screen = tmp_path / "minisat.stdout"
    screen.write_text("WARNING: for repeatability, setting FPU to use double precision\n"
                      "|  Number of variables:  72  |\n\nSATISFIABLE\n")  # fmt: skip
    result = run("decode", screen, "--cnf", cnf)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {screen}:1: this is MiniSat's screen output, which holds no model: decode "
        "the result file that `minisat IN.cnf RESULT` writes\n"
    )
    # cadical and kissat quote the CNF's file name in their comments, in its own encoding
    answer = tmp_path / "latin1.out"
    body = example_files["competition"].read_bytes()
    answer.write_bytes(b"c reading DIMACS file from 'caf\xe9.cnf'\n" + body)
    decoded = run("decode", answer, "--cnf", cnf, "--maze", EXAMPLE)
    assert decoded.exit_code == 0 and valid_for(EXAMPLE, decoded.stdout.strip())
    # anywhere else such a byte is still an error naming its line
    answer.write_bytes(body.replace(b"s SATISFIABLE", b"s SATISFIABLE\xe9"))
    broken = run("decode", answer, "--cnf", cnf)
    assert broken.exit_code == 1
    assert broken.stderr == f"error: {answer}:1: not UTF-8 text (byte 0xe9)\n"


def test_decode_takes_glucose_output_and_a_dp_back_matter_that_says_satisfiable(
    tmp_path, example_files
):
    # the screen-output check fired on Glucose's commented banner, and on a DP output whose
    # back matter held a bare SATISFIABLE line
    glucose = tmp_path / "ex.glucose"
    glucose.write_text(
        "c This is glucose 4.1 --  based on MiniSAT\n"
        "c ========================================[ Problem Statistics ]===========\n"
        + example_files["competition"].read_text()
    )
    decoded = run("decode", glucose, "--cnf", example_files["cnf"], "--maze", EXAMPLE)
    assert decoded.exit_code == 0 and valid_for(EXAMPLE, decoded.stdout.strip())
    dp_out = tmp_path / "note.out"
    dp_out.write_text(example_files["dp_out"].read_text() + "SATISFIABLE\n")
    again = run("decode", dp_out, "--maze", EXAMPLE)
    assert again.exit_code == 0 and valid_for(EXAMPLE, again.stdout.strip())


@pytest.mark.parametrize("value", ["1_0", "\uff15", "+3", "-1", "3.0", ""])
@pytest.mark.parametrize("command", ["solve", "encode", "decode", "show"])
def test_k_on_the_command_line_is_read_as_on_the_maze_file(command, value):
    # Python's int() takes `1_0` and full-width digits; the maze file's K line does not
    result = run(command, EXAMPLE, "-k", value)
    assert result.exit_code == 2
    assert f"K must be a non-negative integer (digits 0-9), not {value!r}" in result.stderr
    assert run("generate", "--nodes", "3", "--treasures", "1", "-k", value).exit_code == 2


def test_an_input_click_thinks_unreadable_is_left_to_the_command(tmp_path, monkeypatch):
    # click's own readability check made an unreadable maze a usage error (exit 2, three
    # lines), where every other command says `error: FILE: cannot read: …` and exits 1
    # (audit 17-B #7). Root reads anything, so the check is made to fail instead
    import os

    maze = tmp_path / "m.txt"
    maze.write_text("START A\nGOLD\n2\nSTART TREASURES NEXT A\nA TREASURES GOLD NEXT START\n")
    monkeypatch.setattr(os, "access", lambda *_args, **_kw: False)
    picture = str(tmp_path / "m.svg")
    for args in (["maze", "solve", str(maze)], ["maze", "show", str(maze), "-o", picture],
                 ["maze", "encode", str(maze)], ["puzzle", "solve", str(maze)]):  # fmt: skip
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 2 and "Usage:" not in result.output, args


def test_a_compressed_encode_is_not_refused_for_its_plain_size(tmp_path, monkeypatch):
    # the disk bound is the plain text's: a .gz output was refused with a false "need at
    # least 114 GB" (review 17b #4)
    import maze.cli

    monkeypatch.setattr(maze.cli, "_free_disk", lambda output: 1000)
    plain = run("encode", EXAMPLE, "-o", tmp_path / "out.txt")
    assert plain.exit_code == 1 and "of disk" in plain.stderr
    packed = run("encode", EXAMPLE, "-o", tmp_path / "out.txt.gz")
    assert packed.exit_code == 0 and (tmp_path / "out.txt.gz").exists()


@pytest.mark.parametrize("form", ["names", "node-time"])
def test_the_key_is_written_in_pieces_with_the_same_text(monkeypatch, form):
    # the key was held whole as text, twice over, after the clauses had streamed: a pipe's
    # 235 MB output peaked at 514 MB (audit 19-H #3)
    import maze.cnf
    from maze.cnf import encode
    from maze.parser import read_maze

    cnf = encode(read_maze(str(EXAMPLE)))
    whole = cnf.key_text(form)
    monkeypatch.setattr(maze.cnf, "_CHUNK", 7)
    pieces = list(cnf.key_pieces(form))
    assert "".join(pieces) == whole and len(pieces) > 1
    assert all(piece.count("\n") <= 7 for piece in pieces)
    if form == "names":
        assert whole == "".join(f"{n} {name}\n" for n, name in enumerate(cnf.name_list(), 1))


def test_out_of_memory_while_streaming_says_the_output_is_incomplete(monkeypatch):
    # it said only "out of memory", and the cut-off stream (every clause, then `0`) reads as
    # a whole DP input with an empty key (audit 19-H #3)
    from maze.cnf import MazeCNF

    def short_of_memory(self, form="names"):
        yield "1 At(START,0)\n"
        raise MemoryError

    monkeypatch.setattr(MazeCNF, "key_pieces", short_of_memory)
    result = CliRunner().invoke(main, ["maze", "encode", str(EXAMPLE)])
    assert result.exit_code == 1
    assert result.stderr == (
        "error: out of memory while writing: the output on stdout is incomplete "
        "(try a smaller K)\n"
    )


def test_show_solve_gives_up_searching_and_draws_the_maze(tmp_path, monkeypatch):
    # `maze show --solve` searched without a limit: a K of 10^8 ran until killed (audit 20-C #2)
    import maze.cli

    monkeypatch.setattr(maze.cli, "SHOW_SEARCH_SECONDS", 0.0)
    out = tmp_path / "m.dot"
    result = CliRunner().invoke(main, ["maze", "show", str(EXAMPLE), "--solve", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "the layered search stopped after 0 s: no path drawn" in result.output
    assert out.read_text().startswith("digraph maze")


def test_help_says_what_a_maze_file_is_and_what_decode_checks():
    # no --help described the maze file format, and decode's said an invalid path is always
    # an error, where without --maze no move can be checked (audit 20-C #3, #7)
    group = run("--help").output
    assert "NODE TREASURES [treasures there] NEXT [nodes its exits lead to]" in group
    assert "\b" not in group  # click's no-rewrap mark shows only where it is misplaced
    example = group.split("NEXT [nodes its exits lead to].", 1)[1].split("Options:")[0]
    lines = [line.strip() for line in example.strip().splitlines()]
    maze = read_maze_text("\n".join(lines) + "\n")
    assert maze.nodes == ["START", "A", "B"] and maze.steps == 2  # the example is a maze
    decode = " ".join(run("decode", "--help").output.split())
    assert "without --maze, only as far as the answer shows" in decode
    assert "Exit status: 0 when a path or NO SOLUTION is printed, 1 bad input" in decode


def test_a_longer_walk_that_holds_everything_within_k_is_printed_as_the_maze_s_walk(tmp_path):
    # it printed all the answer's moves, which `maze show --path --strict` then refused as
    # longer than K (review 20); its first K moves are the maze's walk
    from maze.cnf import encode

    maze = read_maze(SMALL)  # K=3: START A B, GOLD at A, WAND at B
    five = encode(maze.with_steps(5))
    walk = ["START", "A", "START", "B", "START", "A"]
    values = {atom: False for atom in range(1, five.nvars + 1)}
    for time, node in enumerate(walk):
        values[five.atoms.at(node, time)] = True
    for treasure, since in (("GOLD", 1), ("WAND", 3)):
        for time in range(since, 6):
            values[five.atoms.has(treasure, time)] = True
    answer = tmp_path / "five.out"
    answer.write_text(dp_output_text(values, five.key_text()))
    result = run("decode", answer, "--maze", SMALL)
    assert result.exit_code == 0 and result.stdout == "START A START B\n"
    assert result.stderr == (
        f"note: {answer} was encoded with K=5, not {SMALL}'s K=3: its walk was encoded for 5"
        " moves; its first 3 moves hold every treasure: printed\n"
    )
    path = tmp_path / "walk.txt"
    path.write_text(result.stdout)
    shown = run("show", SMALL, "--path", path, "--strict", "-o", tmp_path / "x.dot")
    assert shown.exit_code == 0, shown.output
    # --trim: the note said the first K moves were printed, and fewer were (review 20b)
    four = tmp_path / "small-k4.txt"
    four.write_text(SMALL.read_text().replace("\n3\n", "\n4\n", 1))
    result = run("decode", answer, "--maze", four, "--trim")
    assert result.exit_code == 0 and result.stdout == "START A START B\n"
    assert result.stderr.endswith(
        "its first 4 moves hold every treasure: printed, cut by --trim to the first 3 moves\n"
    )


def test_an_answer_whose_solver_read_another_header_is_refused(tmp_path):
    # CaDiCaL's UNSAT of another CNF was decoded as NO SOLUTION for example.txt, though its
    # own comments name the header it read (audit 21-B #3); Kissat says 'parsed'
    cnf = tmp_path / "ex.cnf"
    assert run("encode", EXAMPLE, "-o", cnf).exit_code == 0  # (DIMACS, by its name)
    for verb in ("found", "parsed"):
        answer = tmp_path / f"{verb}.out"
        answer.write_text(f"c {verb} 'p cnf 1386 38749' header\ns UNSATISFIABLE\n")
        result = run("decode", answer, "--cnf", cnf)
        assert result.exit_code == 1
        assert result.stderr == (
            f"error: {answer}: the solver read 'p cnf 1386 38749', and {cnf} is 'p cnf 72 334':"
            " this answer is for another CNF\n"
        )
        answer.write_text(f"c {verb} 'p cnf 72 334' header\ns UNSATISFIABLE\n")
        result = run("decode", answer, "--cnf", cnf)
        assert (result.exit_code, result.stdout) == (0, "NO SOLUTION\n")


def test_maze_solve_shows_progress_at_a_terminal_between_its_attempt_lines(
    tmp_path, monkeypatch
):
    # a 1,000-node maze solved for seconds with nothing on the terminal (audit 26-B F4)
    import time

    import formats.cli
    import maze.cli
    from maze.cli import maze_group

    monkeypatch.setattr(formats.cli, "PROGRESS_DELAY", 0.001)
    slow = maze.cli._factory

    def factory(name, seed):
        make = slow(name, seed)
        return lambda clauses: (time.sleep(0.05), make(clauses))[1]  # time for a tick

    monkeypatch.setattr(maze.cli, "_factory", factory)
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    args = ["solve", str(EXAMPLE), "--shortest", "-o", str(tmp_path / "path.txt")]
    assert maze_group.main(args, standalone_mode=False) == 10
    assert "satkit maze solve: K=0, 0 s" in terminal.text
    assert "satkit maze solve: K=3, 0 s" in terminal.text
    # each attempt line on a line of its own: the status line is cleared before it
    for line in terminal.text.split("\n")[:-1]:
        assert line.endswith("\r\x1b[K") or "satkit maze solve" not in line.split("\r")[-1]
    assert (tmp_path / "path.txt").read_text() == "START C G H\n"
    quiet = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert maze_group.main([*args, "-q"], standalone_mode=False) == 10
    assert quiet.text == ""


def test_a_k_refused_under_the_progress_line_is_an_error_line_of_its_own(tmp_path, monkeypatch):
    # the error was written after "satkit maze solve: K=2, 0 s" on the same line (review 26 #3)
    import time

    import formats.cli
    import maze.cli
    from maze.cli import maze_group

    monkeypatch.setattr(formats.cli, "PROGRESS_DELAY", 0.001)
    slow_encode = maze.cli.encode

    def encode(maze_, encoding):  # time for the ticker to draw the K being tried
        time.sleep(0.05)
        return slow_encode(maze_, encoding)

    monkeypatch.setattr(maze.cli, "encode", encode)
    monkeypatch.setattr(maze.cli, "available_memory", lambda: 50_000)  # K=2 does not fit
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    args = ["solve", str(EXAMPLE), "--shortest", "-o", str(tmp_path / "path.txt")]
    assert maze_group.main(args, standalone_mode=False) == 1
    assert "satkit maze solve: K=2, 0 s" in terminal.text
    error = terminal.text.index("error: ")
    assert terminal.text[:error].endswith(("\n", "\r\x1b[K"))
    assert terminal.text[error:].startswith(f"error: {EXAMPLE}: K gives ")
    assert "satkit maze solve" not in terminal.text[error:]


def test_decode_strict_still_reads_a_dp_input_given_as_cnf(tmp_path):
    # --strict came to mean DIMACS in the shared reader, and `maze decode --cnf X.cl
    # --strict` refused the DP input its help names (review 27-B #1): it stays DIMACS-only
    # in stats, convert and crosscheck, whose --strict means DIMACS
    clauses, answer = tmp_path / "m.cl", tmp_path / "m.dp"
    assert run("encode", EXAMPLE, "-o", clauses).exit_code == 0
    assert CliRunner().invoke(main, ["dp", str(clauses), "-o", str(answer)]).exit_code == 0
    plain = run("decode", answer, "--cnf", clauses)
    strict = run("decode", answer, "--cnf", clauses, "--strict")
    assert plain.exit_code == 0 and plain.stdout.startswith("START")
    assert (strict.exit_code, strict.stdout) == (0, plain.stdout)


NO_AT_KEY = (
    "no key names the At(N,I) atoms (expected back matter lines like `1 At(START,0)` or "
    "`1 START 0`, or `c var 1 At(START,0)` comments in the CNF)"
)


def test_an_unsat_answer_for_a_cnf_that_names_no_at_atom_is_refused_as_a_sat_one(tmp_path):
    # it printed NO SOLUTION (exit 0), with --maze "confirmed" it, or for a maze CNF whose
    # `c var` lines were stripped blamed a right answer; the SAT answer was refused
    # (audit 28-C #1)
    zebra, bare = tmp_path / "zebra.cnf", tmp_path / "bare2.cnf"
    zebra.write_text("c var 1 Owner(1,Ana)\nc var 2 Owner(1,Ben)\np cnf 2 3\n1 2 0\n-1 0\n-2 0\n")
    encoded = run("encode", EXAMPLE, "-k", "2", "--to", "dimacs")  # K=2: no walk
    bare.write_text("".join(line for line in encoded.stdout.splitlines(keepends=True)
                            if not line.startswith("c")))  # fmt: skip
    answers = {
        "cadical.out": "s UNSATISFIABLE\n",
        "minisat.res": "UNSAT\n",
        "sat.out": "s SATISFIABLE\nv 1 -2 0\n",
    }
    out = tmp_path / "path.txt"
    out.write_text("old\n")
    for cnf in (zebra, bare):
        for file, text in answers.items():
            answer = tmp_path / file
            answer.write_text(text)
            for extra in ((), ("--maze", EXAMPLE), ("--maze", UNSAT)):
                result = run("decode", answer, "--cnf", cnf, "-o", out, *extra)
                assert (result.exit_code, result.stdout) == (1, ""), (cnf, file, extra)
                assert result.stderr == f"error: {answer}: {NO_AT_KEY}\n", (cnf, file, extra)
    assert out.read_text() == "old\n"


def test_an_unsat_dp_output_whose_key_names_no_at_atom_is_refused(tmp_path, example_files):
    # the DP route: a zebra CNF's `convert --to assignment` + `satkit dp` gave NO SOLUTION;
    # a bare `0` (no back matter, no --cnf) stays the assignment's back end's NO SOLUTION
    zebra, bare = tmp_path / "zebra.out", tmp_path / "bare.out"
    zebra.write_text("0\n1 Owner(1,Ana)\n2 Owner(1,Ben)\n")
    bare.write_text("0\n")
    for answer, extra in ((zebra, ()), (zebra, ("--maze", EXAMPLE)), (bare, ("--cnf", zebra))):
        result = run("decode", answer, *extra)
        assert (result.exit_code, result.stdout) == (1, ""), extra
        assert result.stderr == f"error: {answer}: {NO_AT_KEY}\n", extra
    plain = run("decode", bare)
    assert (plain.exit_code, plain.stdout, plain.stderr) == (0, "NO SOLUTION\n", "")
    # a --cnf naming nothing (the same maze CNF, stripped of its names) beside a DP output
    # whose own key names the atoms: decoded by that key
    named, stripped = tmp_path / "k2.cnf", tmp_path / "bare2.cnf"
    k2_in, k2_out = tmp_path / "k2.dp", tmp_path / "k2.out"
    assert run("encode", EXAMPLE, "-k", "2", "--to", "dimacs", "-o", named).exit_code == 0
    lines = named.read_text().splitlines(keepends=True)
    stripped.write_text("".join(line for line in lines if not line.startswith("c")))
    assert run("encode", EXAMPLE, "-k", "2", "-o", k2_in).exit_code == 0
    assert CliRunner().invoke(main, ["dp", str(k2_in), "-o", str(k2_out)]).exit_code == 0
    own = run("decode", k2_out, "--cnf", stripped)
    assert (own.exit_code, own.stdout) == (0, "NO SOLUTION\n"), own.stderr
    # ... but beside a smaller CNF (a puzzle's), that key names variables it has not: the
    # answer is for another CNF, as its SAT twin is told (review 28 #3)
    small = tmp_path / "small.cnf"
    small.write_text("p cnf 3 1\n1 -2 3 0\n")
    other = run("decode", k2_out, "--cnf", small)
    key_lines = k2_out.read_text().splitlines()
    top = max(int(line.split()[0]) for line in key_lines[key_lines.index("0") + 1 :])
    line = next(n for n, text in enumerate(key_lines, 1) if text.split()[:1] == [str(top)])
    assert (other.exit_code, other.stdout) == (1, "")
    assert other.stderr == (
        f"error: {k2_out}:{line}: the answer's key names variable {top}, but the CNF has 3 "
        "variables: it is for another CNF\n"
    )


def test_decode_help_says_that_an_unknown_answer_exits_1_and_cites_c_unknown_s_line(tmp_path):
    # exit 1 for UNKNOWN is kept (0 means decoded), but --help listed only "1 bad input";
    # CaDiCaL's `c UNKNOWN` (no `s` line) gave its error without the line (audit 28-C #3)
    decode = " ".join(run("decode", "--help").output.split())
    assert (
        "1 bad input (an invalid path included) or an answer with nothing to decode (a "
        "solver's UNKNOWN: its time-out or limit), 2 usage error" in decode
    )
    cnf, answer = tmp_path / "ex.cnf", tmp_path / "cadical.out"
    assert run("encode", EXAMPLE, "--to", "dimacs", "-o", cnf).exit_code == 0
    answer.write_text("c CaDiCaL\nc\nc UNKNOWN\nc total real time\n")
    result = run("decode", answer, "--cnf", cnf)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: {answer}:3: the solver gave no answer (UNKNOWN): nothing to decode\n"
    )


def test_decode_says_that_in_is_a_cnf_or_a_dp_input_not_an_answer(tmp_path, example_files):
    # `maze decode x.cnf` said "a solver result carries no key: give the CNF … with --cnf",
    # and `maze decode ex.dp` "expected 'ATOM T' or 'ATOM F', found '-1 -2'", where their
    # converses (--cnf ANSWER, --cnf DP-OUTPUT) are told (audit 28-C, smaller observations)
    cnf, dp_in = example_files["cnf"], example_files["dp_in"]
    header = 1 + next(n for n, line in enumerate(cnf.read_text().splitlines())
                      if line.startswith("p cnf"))  # fmt: skip
    headerless = tmp_path / "headerless"
    headerless.write_text("1 -2 0\n2 0\n")
    told_cnf = (
        "this is a CNF, not a solver's answer: satkit maze decode ANSWER --cnf CNF decodes a "
        "solver's answer to it"
    )
    told_dp = (
        "this is a DP input, not a DP output: decode what `satkit dp` writes for it (or give "
        "it as --cnf beside a solver's answer)"
    )
    for args, told in (
        ((cnf,), f"{cnf}:{header}: {told_cnf}"),
        ((cnf, "--cnf", dp_in), f"{cnf}:{header}: {told_cnf}"),
        ((headerless,), f"{headerless}:1: {told_cnf}"),
        ((dp_in,), f"{dp_in}:1: {told_dp}"),
        ((dp_in, "--cnf", cnf), f"{dp_in}:1: {told_dp}"),
    ):
        result = run("decode", *args)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"error: {told}\n")
    # what is no formula keeps its own error
    assert "give the CNF it solved with --cnf" in run("decode", example_files["competition"]).stderr
    cut, model = tmp_path / "cut.out", tmp_path / "model.res"
    cut.write_text("1 T\n2 F\n")
    assert "no line '0'" in run("decode", cut).stderr
    model.write_text("1 -2 3 0\n")  # (a MiniSat result without its SAT line, or one clause)
    assert "expected 'ATOM T' or 'ATOM F'" in run("decode", model, "--cnf", cnf).stderr


def test_decode_tells_numbers_for_values_and_sentences_apart_from_a_formula_and_a_key(tmp_path):
    # a DP output writing T/F as 1/0 was told "this is a DP input"; a sentence after the `0`
    # that starts with a number was read as a key line, and refused (review 28 #2, #4)
    values = tmp_path / "v10.out"
    values.write_text("1 1\n2 0\n3 1\n0\n1 At(START,0)\n")
    told = run("decode", values)
    assert (told.exit_code, told.stdout) == (1, "")
    assert told.stderr == f"error: {values}:1: atom 1 has value '1': every atom must be T or F\n"
    sentence = tmp_path / "sentence.out"
    sentence.write_text("0\n3 moves were not enough\n")
    assert run("decode", sentence).stdout == "NO SOLUTION\n"
    for key in ("0\nP 1\nQ 2\n", "0\n1 P\n2 Q\n"):  # a non-maze key, either way round
        other = tmp_path / "other.out"
        other.write_text(key)
        result = run("decode", other)
        assert (result.exit_code, result.stderr) == (1, f"error: {other}: {NO_AT_KEY}\n"), key


def test_decode_help_lists_exit_130():
    decode = " ".join(run("decode", "--help").output.split())
    assert "2 usage error, 130 when Ctrl-C or SIGTERM stops it." in decode


def test_encode_stopped_after_stdout_got_everything_does_not_call_it_incomplete(monkeypatch):
    # the stream check said "the output on stdout is incomplete" though it was whole
    # (review 28 #1)
    from maze.cnf import MazeCNF

    real = MazeCNF.write

    def then_stopped(self, *args, **kwargs):
        real(self, *args, **kwargs)
        raise KeyboardInterrupt

    whole = run("encode", EXAMPLE).stdout
    monkeypatch.setattr(MazeCNF, "write", then_stopped)
    result = run("encode", EXAMPLE)
    assert result.exit_code == 130 and result.stdout == whole
    assert result.stderr == "interrupted after <stdout> was written whole\n"
