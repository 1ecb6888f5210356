"""End-to-end tests of `satkit solve` (click's runner, and a real process for Ctrl-C)."""

from __future__ import annotations

import gzip
import itertools
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import dratify
import pytest
from click.testing import CliRunner
from pysat.solvers import Solver as PySATSolver

from formats.results import parse_competition
from satkit import main

SATLIB = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "satlib"
SATISFIABLE = "p cnf 3 2\n1 -2 0\n2 3 0\n"
UNSATISFIABLE = "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n"


def pigeonhole_text(holes: int) -> str:
    def var(p: int, h: int) -> int:
        return p * holes + h + 1

    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p, q in itertools.combinations(range(holes + 1), 2):
            clauses.append([-var(p, h), -var(q, h)])
    body = "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    return f"p cnf {holes * (holes + 1)} {len(clauses)}\n{body}"


def run(args: list[str], stdin: str | None = None):
    return CliRunner().invoke(main, ["solve", *args], input=stdin, catch_exceptions=False)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def satisfied(model: list[int], text: str) -> bool:
    true = set(model)
    clauses = [line.split()[:-1] for line in text.splitlines()[1:]]
    return all(any(int(lit) in true for lit in clause) for clause in clauses)


def test_satisfiable_exits_10_with_a_model(tmp_path: Path) -> None:
    result = run([str(write(tmp_path, "sat.cnf", SATISFIABLE))])
    assert result.exit_code == 10
    answer = parse_competition(result.stdout)
    assert answer.status == "SAT"
    assert sorted(map(abs, answer.model)) == [1, 2, 3]
    assert satisfied(answer.model, SATISFIABLE)
    assert [line for line in result.stdout.splitlines() if line.startswith("s ")] == [
        "s SATISFIABLE"
    ]
    assert any(c.startswith("conflicts: ") for c in answer.comments)


def test_unsatisfiable_exits_20(tmp_path: Path) -> None:
    result = run([str(write(tmp_path, "unsat.cnf", UNSATISFIABLE))])
    assert result.exit_code == 20
    assert parse_competition(result.stdout).status == "UNSAT"
    assert "v " not in result.stdout


def test_quiet_prints_only_the_answer(tmp_path: Path) -> None:
    path = write(tmp_path, "sat.cnf", "p cnf 3 3\n1 -2 0\n2 3 0\n")  # header says 3 clauses
    result = run([str(path), "--quiet"])
    assert result.exit_code == 10
    assert [line[0] for line in result.stdout.splitlines()] == ["s", "v"]
    assert result.stderr == ""  # the header-mismatch warning is silenced too
    loud = run([str(path)])
    assert "warning: " in loud.stderr


def test_reads_stdin_and_compressed_files(tmp_path: Path) -> None:
    assert run(["-"], stdin=UNSATISFIABLE).exit_code == 20
    packed = tmp_path / "sat.cnf.gz"
    packed.write_bytes(gzip.compress(SATISFIABLE.encode()))
    assert run([str(packed), "-q"]).exit_code == 10


def test_long_models_are_wrapped_in_short_value_lines(tmp_path: Path) -> None:
    n = 3000
    text = f"p cnf {n} {n}\n" + "".join(f"-{v} 0\n" for v in range(1, n + 1))
    result = run([str(write(tmp_path, "wide.cnf", text)), "-q"])
    assert result.exit_code == 10
    values = [line for line in result.stdout.splitlines() if line.startswith("v")]
    assert len(values) > 1
    assert all(len(line) <= 4096 for line in values)
    assert values[-1].endswith(" 0")
    assert parse_competition(result.stdout).model == [-v for v in range(1, n + 1)]


def test_bad_input_is_one_error_line_and_exit_1(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.cnf", "p cnf 2 1\n1 x 0\n")
    result = run([str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: {path}:2: ")
    assert len(result.stderr.splitlines()) == 1
    missing = run([str(tmp_path / "nope.cnf")])
    assert missing.exit_code == 1
    assert missing.stderr.startswith("error: ") and "Traceback" not in missing.stderr


def test_strict_turns_warnings_into_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "sloppy.cnf", "p cnf 3 3\n1 -2 0\n2 3 0\n")
    assert run([str(path), "--strict"]).exit_code == 1


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    path = str(write(tmp_path, "sat.cnf", SATISFIABLE))
    assert run([path, "--heuristic", "jw"]).exit_code == 2  # not a cdcl heuristic
    assert run([path, "--binary-proof"]).exit_code == 2
    assert run([path, "--proof", "-"]).exit_code == 2
    for seconds in ("0", "-1", "nan", "inf", "1e7", "soon"):  # not a usable time limit
        result = run([path, "--timeout", seconds])
        assert result.exit_code == 2 and "--timeout" in result.output, seconds
    assert run([path, "--conflicts", "-3"]).exit_code == 2
    assert run([path, "--mode", "quantum"]).exit_code == 2


def test_conflict_limit_gives_unknown_and_statistics(tmp_path: Path) -> None:
    path = str(write(tmp_path, "php.cnf", pigeonhole_text(8)))
    result = run([path, "--conflicts", "25"])
    assert result.exit_code == 0
    answer = parse_competition(result.stdout)
    assert answer.status == "UNKNOWN"
    assert "conflicts: 25" in answer.comments
    # the limit that stopped it, not "--timeout or --conflicts" (audit 22-B #5)
    assert "stopped: limit reached (--conflicts 25)" in answer.comments
    assert run([path, "--conflicts", "0", "-q"]).stdout == "s UNKNOWN\n"


def test_timeout_gives_unknown(tmp_path: Path) -> None:
    path = str(write(tmp_path, "php.cnf", pigeonhole_text(10)))  # hours for this solver
    result = run([path, "--timeout", "0.2", "--conflicts", "1000000000"])
    assert result.exit_code == 0
    answer = parse_competition(result.stdout)
    assert answer.status == "UNKNOWN"
    assert "stopped: limit reached (--timeout)" in answer.comments


def test_text_and_binary_proofs_verify(tmp_path: Path) -> None:
    text = pigeonhole_text(4)
    path = write(tmp_path, "php.cnf", text)
    proof = tmp_path / "php.drup"
    result = run([str(path), "--proof", str(proof)])
    assert result.exit_code == 20
    assert f"proof (DRUP): {proof}" in parse_competition(result.stdout).comments
    formula = dratify.parse_dimacs(text)
    assert dratify.check_proof(formula, proof.read_text(), check_rat=False).ok
    binary = tmp_path / "php.drat"
    assert run([str(path), "--proof", str(binary), "--binary-proof", "-q"]).exit_code == 20
    decoded = PySATSolver._proof_bin2text(bytearray(binary.read_bytes()))
    assert decoded == proof.read_text().splitlines()


def test_without_unsat_the_proof_file_is_empty_never_an_older_proof(tmp_path: Path) -> None:
    # as cadical leaves it; an earlier run's proof of another formula used to stay
    proof = tmp_path / "p.drup"
    unsat = write(tmp_path, "unsat.cnf", UNSATISFIABLE)
    assert run([str(unsat), "--proof", str(proof)]).exit_code == 20 and proof.read_text()
    sat = write(tmp_path, "sat.cnf", SATISFIABLE)
    assert run([str(sat), "--proof", str(proof)]).exit_code == 10
    assert proof.read_text() == ""
    assert run([str(unsat), "--proof", str(proof)]).exit_code == 20 and proof.read_text()
    stopped = run([str(unsat), "--proof", str(proof), "--conflicts", "0", "--mode", "classic"])
    assert stopped.exit_code == 0 and proof.read_text() == ""
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_proof_never_overwrites_the_input(tmp_path: Path) -> None:
    path = write(tmp_path, "unsat.cnf", UNSATISFIABLE)
    result = run([str(path), "--proof", str(path)])
    assert result.exit_code == 1
    assert "refusing to overwrite" in result.stderr
    assert path.read_text() == UNSATISFIABLE


def test_a_proof_path_that_cannot_be_written_is_refused_before_solving(tmp_path: Path) -> None:
    path = write(tmp_path, "php.cnf", pigeonhole_text(5))
    missing = tmp_path / "missing" / "p.drup"
    result = run([str(path), "--proof", str(missing)])
    assert result.exit_code == 1
    assert result.stderr == f"error: {missing}: output folder does not exist\n"
    assert result.stdout == ""  # not loaded, not solved: no statistics, no answer
    folder = run([str(path), "--proof", str(tmp_path)])  # one line, as for -o elsewhere
    assert folder.exit_code == 1
    assert folder.stderr == f"error: {tmp_path}: is a directory, not a file\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_proof_that_cannot_be_written_still_leaves_the_answer(tmp_path: Path) -> None:
    path = write(tmp_path, "php.cnf", pigeonhole_text(4))
    result = run([str(path), "--proof", "/dev/full"])  # a full disk, once the proof is written
    assert result.exit_code == 1
    assert result.stderr == "error: /dev/full: No space left on device\n"
    answer = parse_competition(result.stdout)
    assert answer.status == "UNSAT" and "proof (DRUP) not written: /dev/full" in answer.comments


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_an_answer_that_cannot_be_written_names_stdout(tmp_path: Path) -> None:
    path = write(tmp_path, "sat.cnf", SATISFIABLE)
    with open("/dev/full", "w") as full:
        process = subprocess.run(
            [sys.executable, "-c", "from satkit import main; main()", "solve", str(path)],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
        )  # fmt: skip
    assert process.returncode == 1
    assert process.stderr == "error: <stdout>: No space left on device\n"


def test_seed_is_deterministic(tmp_path: Path) -> None:
    path = str(write(tmp_path, "php.cnf", pigeonhole_text(5)))

    def steady(stdout: str) -> list[str]:  # everything but the clock readings
        return [line for line in stdout.splitlines() if "time" not in line and "second" not in line]

    assert steady(run([path, "--seed", "7"]).stdout) == steady(run([path, "--seed", "7"]).stdout)


def test_satlib_instances_have_the_right_exit_codes() -> None:
    if not SATLIB.is_dir():
        pytest.skip(f"SATLIB instances not found at {SATLIB} (../shared beside the checkout)")
    assert run([str(SATLIB / "uf50" / "uf50-01.cnf"), "-q"]).exit_code == 10
    assert run([str(SATLIB / "uuf50" / "uuf50-01.cnf"), "-q"]).exit_code == 20


def test_cdcl_heuristics(tmp_path: Path) -> None:
    path = str(write(tmp_path, "unsat.cnf", UNSATISFIABLE))
    for heuristic in ("vsids", "vsids-numbered"):
        assert run([path, "--heuristic", heuristic, "-q"]).exit_code == 20
    assert run([path, "--heuristic", "course"]).exit_code == 2  # a classic one


def test_classic_mode_runs_when_present(tmp_path: Path) -> None:
    path = str(write(tmp_path, "unsat.cnf", UNSATISFIABLE))
    assert run([path, "--mode", "classic", "-q"]).exit_code == 20
    assert run([path, "--mode", "classic", "--heuristic", "vsids"]).exit_code == 2


@pytest.mark.skipif(sys.platform == "win32", reason="signals to a child are POSIX")
@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM", "SIGHUP", "SIGXCPU"])
def test_ctrl_c_or_sigterm_prints_unknown_with_statistics(tmp_path: Path, signum: str) -> None:
    """SIGTERM (what `timeout` and `kill` send), SIGHUP (a terminal closed; audit 17-B #2)
    and SIGXCPU (a soft CPU-time limit; audit 19-D #4) stop the solve like Ctrl-C."""
    path = write(tmp_path, "php.cnf", pigeonhole_text(10))
    process = subprocess.Popen(
        [sys.executable, "-c", "from satkit import main; main()", "solve", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    first = process.stdout.readline()  # the heading comes once the solver is set up
    assert first.startswith("c satkit solve")
    process.send_signal(getattr(signal, signum))
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    answer = parse_competition(first + out)
    assert answer.status == "UNKNOWN"
    assert "stopped: interrupted" in answer.comments
    assert any(c.startswith("conflicts: ") for c in answer.comments)
    assert "Traceback" not in err


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="SIGHUP is POSIX")
def test_under_nohup_a_hangup_does_not_stop_the_solve(tmp_path: Path) -> None:
    # nohup leaves SIGHUP ignored for the command: handling it like SIGTERM stopped the
    # run at logout (review 17 #1)
    path = write(tmp_path, "php.cnf", pigeonhole_text(7))
    process = subprocess.Popen(
        [sys.executable, "-c", "from satkit import main; main()", "solve", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=Path(__file__).resolve().parents[1],
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
    )  # fmt: skip
    first = process.stdout.readline()
    assert first.startswith("c satkit solve")
    process.send_signal(signal.SIGHUP)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 20, err
    assert "s UNSATISFIABLE" in out


@pytest.mark.parametrize("command", ["solve", "dp"])
def test_a_variable_count_that_cannot_fit_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """A valid header (or literal) far beyond memory: refused up front, not a MemoryError."""
    import dpll.cli

    monkeypatch.setattr(dpll.cli, "available_memory", lambda: 10**9)
    # at the line that sets the count, named as what it is (audit 22-B #4)
    if command == "solve":
        path = write(tmp_path, "big.cnf", "c big\np cnf 1999999999 1\n3 0\n")
        where = "2: 1,999,999,999 variables (the header's count)"
    else:
        path = write(tmp_path, "big.txt", "1 2\n1 1999999999\n0\nback\n")
        where = "2: 1,999,999,999 variables (the largest atom)"
    result = CliRunner().invoke(main, [command, str(path)])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"error: {path}:{where} need at least")
    assert "1.0 GB are available" in lines[0]
    if command == "solve":
        literal = write(tmp_path, "literal.cnf", "p cnf 3 2\n1 2 0\n-1\n 1999999999 0\n")
        result = CliRunner().invoke(main, [command, str(literal), "-q"])
        assert result.stderr.startswith(
            f"error: {literal}:3: 1,999,999,999 variables (the largest literal) need")
    monkeypatch.setattr(dpll.cli, "available_memory", lambda: None)  # unknown: no refusal
    small = write(tmp_path, "small.cnf", "p cnf 3 1\n3 0\n")
    assert CliRunner().invoke(main, ["solve", str(small)]).exit_code == 10


def test_a_process_memory_limit_is_seen_and_a_memory_error_is_one_line(tmp_path: Path) -> None:
    # under `ulimit -v` (a container's limit, a batch system's) the size check sees the
    # limit, and a MemoryError past the checks is one error line, not a traceback
    big = write(tmp_path, "v7.cnf", "p cnf 10000000 1\n1 0\n")
    script = (
        "import resource, sys; "
        "resource.setrlimit(resource.RLIMIT_AS, (2 * 10**9, resource.RLIM_INFINITY)); "
        "from satkit import main; sys.argv = ['satkit', 'solve', '-q', sys.argv[1]]; main()"
    )
    process = subprocess.run(
        [sys.executable, "-c", script, str(big)], capture_output=True, text=True, timeout=120
    )
    assert process.returncode == 1 and "Traceback" not in process.stderr
    assert process.stderr.startswith(f"error: {big}:1: 10,000,000 variables"), process.stderr


def test_memory_error_past_the_checks_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dpll.cli

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(dpll.cli.Solver, "append_formula", no_memory)
    result = run([str(write(tmp_path, "sat.cnf", SATISFIABLE))])
    assert result.exit_code == 1 and result.stderr.startswith("error: out of memory")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("command", ["solve", "dp"])
def test_variables_that_cannot_be_allocated_name_the_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # "out of memory: 10,000,000 variables need about 4.0 GB, more than this process can
    # allocate (this process may not use more; try a smaller input)": no file, said twice
    # (audit 22-B #4)
    import dpll.cli
    from dpll.solver import TooManyVariables

    def no_room(*args: object, **kwargs: object) -> None:
        raise TooManyVariables("3 variables need about 0.0 GB, more than this process can allocate")

    monkeypatch.setattr(dpll.cli.Solver, "append_formula", no_room)
    path = write(tmp_path, "in.txt", "1 -3\n0\n")
    result = CliRunner().invoke(main, [command, str(path), "-q"])
    assert (result.exit_code, result.stderr) == (1, f"error: {path}: 3 variables need about "
        "0.0 GB, more than this process can allocate; try a smaller input\n")  # fmt: skip


def test_out_of_memory_lets_the_solver_go_before_the_message_is_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # printing the message itself ran out of memory while the traceback kept the
    # solver alive: a chain of MemoryError tracebacks after the error line (audit 15-D)
    import dpll.cli
    import formats.cli

    freed: list[bool] = []

    class Held:
        def __del__(self) -> None:
            freed.append(True)

    def no_memory(*args: object, **kwargs: object) -> None:
        held = Held()  # noqa: F841 - kept alive only by this frame (and its traceback)
        raise MemoryError

    real_fail = formats.cli.fail

    def fail(message: str, code: int = 1) -> None:
        assert freed, "the frames of the failed solve are still held"
        real_fail(message, code)

    monkeypatch.setattr(dpll.cli.Solver, "append_formula", no_memory)
    monkeypatch.setattr(formats.cli, "fail", fail)
    result = run([str(write(tmp_path, "sat.cnf", SATISFIABLE))])
    assert result.exit_code == 1 and result.stderr.startswith("error: out of memory")


def test_a_proof_into_the_file_stdout_goes_to_is_a_usage_error(tmp_path: Path) -> None:
    # `--proof -` is refused; so is the same file by another name: both writers would
    # overwrite each other (the proof from offset 0, the answer at its own offset)
    unsat = write(tmp_path, "unsat.cnf", "p cnf 1 2\n1 0\n-1 0\n")
    out = tmp_path / "out.txt"
    for proof in ("/dev/stdout", str(out)):
        with out.open("w") as stdout:
            process = subprocess.run(
                [sys.executable, "-c", "from satkit import main; main()", "solve", "-q",
                 "--proof", proof, str(unsat)],
                stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120,
            )  # fmt: skip
        assert process.returncode == 2 and "would mix the proof" in process.stderr
        assert out.read_text() == ""


def test_timeout_covers_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dpll.cli

    real_read = dpll.cli.read_dimacs_or_dp

    def slow_read(*args: object, **kwargs: object) -> object:
        time.sleep(30)  # a huge file; the alarm interrupts the sleep
        return real_read(*args, **kwargs)

    monkeypatch.setattr(dpll.cli, "read_dimacs_or_dp", slow_read)
    path = str(write(tmp_path, "sat.cnf", SATISFIABLE))
    result = run([path, "--timeout", "0.2"])
    assert result.exit_code == 0
    assert result.stdout == "c stopped: limit reached (--timeout) while reading\ns UNKNOWN\n"
    assert run([path, "--timeout", "0.2", "-q"]).stdout == "s UNKNOWN\n"


def test_quiet_interrupt_while_reading_prints_only_the_s_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dpll.cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(dpll.cli, "read_dimacs_or_dp", interrupted)
    path = str(write(tmp_path, "sat.cnf", SATISFIABLE))
    assert run([path, "-q"]).stdout == "s UNKNOWN\n"
    # "c stopped: …" as every other stop says it (audit 28-A, an observation)
    assert run([path]).stdout == "c stopped: interrupted while reading\ns UNKNOWN\n"


def test_no_conflicts_allowed_still_answers_what_propagation_decides(tmp_path: Path) -> None:
    refuted = str(write(tmp_path, "u.cnf", "p cnf 2 3\n1 0\n-1 2 0\n-2 0\n"))
    result = run([refuted, "--conflicts", "0", "-q"])
    assert (result.exit_code, result.stdout) == (20, "s UNSATISFIABLE\n")
    result = run([refuted, "--conflicts", "0", "-q", "--mode", "classic"])
    assert (result.exit_code, result.stdout) == (0, "s UNKNOWN\n")
    # classic knows an empty clause without search (it said UNKNOWN; audit 19-A #3)
    empty = str(write(tmp_path, "e.cnf", "p cnf 3 2\n1 2 0\n0\n"))
    for mode in ("classic", "cdcl"):
        result = run([empty, "--conflicts", "0", "-q", "--mode", mode])
        assert (result.exit_code, result.stdout) == (20, "s UNSATISFIABLE\n")


def test_a_proof_to_dev_null_with_stdout_there_too_is_fine(tmp_path: Path) -> None:
    unsat = write(tmp_path, "unsat.cnf", "p cnf 1 2\n1 0\n-1 0\n")
    process = subprocess.run(
        [sys.executable, "-c", "from satkit import main; main()", "solve", "--proof",
         "/dev/null", str(unsat)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120,
    )  # fmt: skip
    assert process.returncode == 20 and process.stderr == ""


def test_a_dp_input_file_is_solved_as_dp_input_as_stats_reads_it(tmp_path):
    # read as DIMACS, the DP clauses ran together into one: SAT for an UNSAT formula
    dp = tmp_path / "u.txt"
    dp.write_text("1\n-1\n0\nsome key\n")
    result = run([str(dp)])
    assert result.exit_code == 20 and "c variables: 1, clauses: 2" in result.stdout
    assert result.stderr == (
        f"warning: {dp}:1: no 'p cnf' header, and the lines are laid out as the assignment's "
        "DP input (one clause per line, then a line '0'): read so (name the file .cnf to read "
        "it as DIMACS)\n"
    )
    stats = CliRunner().invoke(main, ["stats", str(dp)])
    assert "assignment" in stats.stdout and re.search(r"clauses: +2\n", stats.stdout)
    # a .cnf name is DIMACS whatever its lines; --strict reads DIMACS only
    named = tmp_path / "u.cnf"
    named.write_text("1\n-1\n0\n")
    assert run([str(named), "-q"]).stdout.startswith("s SATISFIABLE")  # the clause 1 -1
    assert run([str(dp), "--strict"]).exit_code == 1
    # stdin too, as convert and crosscheck read it (one pass: the first block decides)
    assert run(["-", "-q"], stdin="1\n-1\n0\n").stdout.startswith("s UNSATISFIABLE")
    # what the DP reader refuses is read as DIMACS after all: a headerless clause that
    # spans lines (minisat: UNSAT)
    span = tmp_path / "span.txt"
    span.write_text("1 2\n3 0\n-1 0\n-2 0\n-3 0\n")
    assert run([str(span), "-q"]).stdout == "s UNSATISFIABLE\n"
    # a comment after a clause is no DP line: stats, solve and crosscheck read it alike
    noted = tmp_path / "noted.txt"
    noted.write_text("1 2 0 c note\n-1 0\n-2 0\n")
    assert run([str(noted), "-q"]).stdout == "s UNSATISFIABLE\n"
    assert "dimacs" in CliRunner().invoke(main, ["stats", str(noted)]).stdout
    # a maze file gets the DIMACS reader's error, which says what it is (audit 22-C #4)
    maze = tmp_path / "m.txt"
    maze.write_text("START A\nGOLD\n1\nSTART TREASURES NEXT A\nA TREASURES GOLD NEXT START\n")
    assert f"{maze}:1: this is a maze file, not a CNF: satkit maze solve" in CliRunner().invoke(
        main, ["solve", str(maze)]).stderr


@pytest.mark.skipif(not hasattr(signal, "SIGXCPU"), reason="CPU-time limits are POSIX")
def test_a_cpu_time_limit_gives_unknown_and_leaves_no_temporary_proof(tmp_path: Path) -> None:
    # `ulimit -t` / a harness's RLIMIT_CPU killed the solve with no 's' line and left the
    # proof's hidden temporary file behind (audit 19-D #4); MiniSat answers INDETERMINATE
    import resource

    path = write(tmp_path, "php.cnf", pigeonhole_text(10))
    proof = tmp_path / "p.drup"
    done = subprocess.run(
        [sys.executable, "-c", "from satkit import main; main()", "solve", str(path),
         "--proof", str(proof)],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1],
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (2, 30)),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert parse_competition(done.stdout).status == "UNKNOWN"
    assert sorted(os.listdir(tmp_path)) == ["p.drup", "php.cnf"] and proof.read_text() == ""


def test_without_a_file_the_formula_comes_from_stdin(tmp_path: Path) -> None:
    # minisat, cadical and picosat read stdin when given no file; harnesses that pipe the
    # formula in (cnfgen's, for one) got a usage error (audit 19-D #1)
    result = run([], stdin="p cnf 2 2\n1 0\n-1 2 0\n")
    assert result.exit_code == 10 and "v 1 2 0" in result.stdout


def test_a_second_file_gets_minisats_result(tmp_path: Path) -> None:
    # `minisat IN OUT` writes SAT and the model, UNSAT or INDET to OUT; course scripts and
    # harnesses call solvers that way (audit 19-D #1)
    sat = write(tmp_path, "sat.cnf", "p cnf 3 2\n1 2 0\n-1 3 0\n")
    unsat = write(tmp_path, "unsat.cnf", "p cnf 1 2\n1 0\n-1 0\n")
    out = tmp_path / "out.txt"
    result = run([str(sat), str(out)])
    assert result.exit_code == 10 and "s SATISFIABLE" in result.stdout
    from formats.results import parse_minisat_result

    answer = parse_minisat_result(out.read_text())
    assert answer.status == "SAT" and satisfied(answer.model, sat.read_text())
    assert run([str(unsat), str(out), "-q"]).exit_code == 20 and out.read_text() == "UNSAT\n"
    hard = write(tmp_path, "php.cnf", pigeonhole_text(9))
    assert run([str(hard), str(out), "--conflicts", "5", "-q"]).exit_code == 0
    assert out.read_text() == "INDET\n"
    # refused before solving: stdout, the proof's file, the input itself
    assert run([str(sat), "-"]).exit_code == 2
    assert run([str(unsat), str(out), "--proof", str(out)]).exit_code == 2
    same = run([str(sat), str(sat)])
    assert same.exit_code == 2 and "existing CNF file" in same.stderr
    assert sat.read_text() == "p cnf 3 2\n1 2 0\n-1 3 0\n"
    # `satkit solve *.cnf` matching two files must not overwrite the second
    second = run([str(sat), str(unsat)])
    assert second.exit_code == 2 and "existing CNF file" in second.stderr
    assert unsat.read_text() == "p cnf 1 2\n1 0\n-1 0\n"
    dp_named = write(tmp_path, "dp.txt", "1 2\n0\n")
    same_txt = run([str(dp_named), str(dp_named)])
    assert same_txt.exit_code == 1 and "input" in same_txt.stderr


def test_a_stop_while_the_answer_is_printed_says_the_output_is_cut_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SIGTERM while a long model was blocked on a slow reader said "interrupted: nothing
    # written" after 's SATISFIABLE' and part of the model had gone out (audit 19-D #3)
    import dpll.cli

    def blocked(result):
        raise KeyboardInterrupt

    monkeypatch.setattr(dpll.cli, "competition_text", blocked)
    path = write(tmp_path, "sat.cnf", "p cnf 1 1\n1 0\n")
    result = CliRunner().invoke(main, ["solve", str(path)])
    assert result.exit_code == 130
    assert result.stderr == (
        "error: interrupted while printing the answer: standard output is cut off\n"
    )


def test_a_result_file_that_cannot_be_written_still_leaves_the_answer(tmp_path: Path) -> None:
    # RESULT was written before the answer was printed, so a full disk lost both (review 19
    # #5); as with --proof, the answer stands and one error line follows, exit 1
    sat = write(tmp_path, "sat.cnf", "p cnf 1 1\n1 0\n")
    result = CliRunner().invoke(main, ["solve", "-q", str(sat), "/dev/full"])
    assert result.stdout == "s SATISFIABLE\nv 1 0\n"
    assert result.exit_code == 1
    assert result.stderr == "error: /dev/full: No space left on device\n"


def test_a_formula_typed_at_a_terminal_gets_one_hint_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with FILE left out, solve waited without a word at a terminal (review 19 #3); minisat
    # and cadical say they read stdin
    import dpll.cli

    monkeypatch.setattr(dpll.cli, "_typed_at_a_terminal", lambda: True)
    result = CliRunner().invoke(main, ["solve"], input="p cnf 1 1\n1 0\n")
    assert result.exit_code == 10
    assert result.stderr.startswith("reading DIMACS from standard input (Ctrl-D ends it)\n")
    quiet = CliRunner().invoke(main, ["solve", "-q"], input="p cnf 1 1\n1 0\n")
    assert quiet.stderr == ""


def test_a_stop_while_the_result_file_is_written_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the answer was whole, yet the message said stdout was cut off (review 19c #1)
    import dpll.cli

    def stopped(result):
        raise KeyboardInterrupt

    monkeypatch.setattr(dpll.cli, "minisat_result_text", stopped)
    sat = write(tmp_path, "sat.cnf", "p cnf 1 1\n1 0\n")
    out = tmp_path / "out.txt"
    result = CliRunner().invoke(main, ["solve", "-q", str(sat), str(out)])
    assert result.exit_code == 130 and result.stdout == "s SATISFIABLE\nv 1 0\n"
    assert result.stderr == f"error: interrupted while writing {out}: it is not written\n"
    assert not out.exists()


def test_the_stdin_hint_comes_after_the_usage_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a usage error that means stdin is never read was preceded by the hint (review 19c #2)
    import dpll.cli

    monkeypatch.setattr(dpll.cli, "_typed_at_a_terminal", lambda: True)
    result = CliRunner().invoke(main, ["solve", "--mode", "cdcl", "--heuristic", "jw"])
    assert result.exit_code == 2 and "reading DIMACS" not in result.stderr


def test_solve_does_not_hold_the_inputs_comments(tmp_path: Path) -> None:
    # a solver needs no comment, but `solve` kept every one: a file of 1 GB of comments
    # peaked at 1.6 GB where minisat needs 4 MB (audit 19-H #4)
    import tracemalloc

    path = tmp_path / "commented.cnf"
    with open(path, "w", encoding="ascii") as handle:
        handle.write("p cnf 2 2\n")
        handle.writelines(f"c {i:08d} " + "x" * 90 + "\n" for i in range(100_000))  # 10 MB
        handle.write("1 2 0\n-1 0\n")
    tracemalloc.start()
    try:
        result = run(["-q", str(path)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 10 and "v -1 2 0" in result.output
    assert peak < 6_000_000  # the comments as strings were 15 MB; a 1 MB block is read at a time


def test_a_utf16_cnf_is_solved_as_its_text(tmp_path: Path) -> None:
    # what Windows PowerShell 5's `>` writes: it was "binary data, not DIMACS text"
    path = tmp_path / "wide.cnf"
    path.write_bytes("c from PowerShell\r\np cnf 2 2\r\n1 -2 0\r\n-1 0\r\n".encode("utf-16"))
    result = run([str(path), "--quiet"])
    assert (result.exit_code, result.stdout) == (10, "s SATISFIABLE\nv -1 -2 0\n")
