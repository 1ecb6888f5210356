"""crosscheck.external: each program's I/O style, exit codes, crashes, and deadlines that kill.

Fake programs (small shell scripts named like the real ones) pin down every
way a program can answer; the real Debian binaries run when they are on
PATH (CI installs minisat and cadical) and are skipped otherwise.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crosscheck.external import (
    ExternalSolver,
    program_problem,
    program_style,
    run_program,
    write_clauses,
)
from crosscheck.validate import model_problem

SAT = [[1, -2], [2, 3]]
UNSAT = [[1], [-1]]


def fake(tmp_path, name: str, body: str) -> str:
    """An executable shell script called ``name`` (so its I/O style is ``name``'s)."""
    folder = tmp_path / f"fake-{len(list(tmp_path.iterdir()))}"
    folder.mkdir()
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


@pytest.fixture
def cnf(tmp_path):
    path = tmp_path / "in.cnf"
    write_clauses(str(path), 3, SAT)
    return str(path)


def test_write_clauses_is_plain_dimacs(tmp_path):
    path = tmp_path / "x.cnf"
    write_clauses(str(path), 5, [[1, -2], [], [3]])
    assert path.read_text() == "p cnf 5 3\n1 -2 0\n0\n3 0\n"
    write_clauses(str(path), 0, [[4]])
    assert path.read_text() == "p cnf 4 1\n4 0\n"


def test_styles():
    assert program_style("minisat") == "result-file"
    assert program_style("/usr/local/bin/kissat") == "stdout"
    assert program_style("glucose") == "competition"  # any other program
    assert program_style("/opt/bin/mysolver") == "competition"
    with pytest.raises(ValueError, match="name the external program"):
        program_style("")


# ------------------------------------------------- any other program: SAT-competition output


def test_other_program_is_run_as_program_file(tmp_path, cnf):
    # argv: PROGRAM IN (no options), stdout read as competition output, exit 0 accepted
    program = fake(
        tmp_path,
        "mysolver",
        '[ "$#" = 1 ] && [ "$1" = "' + cnf + '" ] || exit 7\n'
        'echo "c fine"; echo "s SATISFIABLE"; echo "v 1 -2"; echo "v 3 0"; exit 0',
    )
    answer = run_program(program, cnf, 10)
    assert (answer.status, answer.model, answer.returncode) == ("SAT", [1, -2, 3], 0)


def test_a_ctrl_c_while_the_children_are_listed_is_a_ctrl_c(tmp_path, cnf, monkeypatch):
    # the finally read `known` before it was bound: an UnboundLocalError traceback instead
    # of the interrupt, and shrink lost the smallest CNF found so far (audit 27-C #1)
    import crosscheck.external as external

    def interrupted() -> set[int]:
        raise KeyboardInterrupt

    monkeypatch.setattr(external, "_adopt_orphans", lambda: True)
    monkeypatch.setattr(external, "_children", interrupted)
    program = fake(tmp_path, "mysolver", 'echo "s UNSATISFIABLE"; exit 20')
    with pytest.raises(KeyboardInterrupt):
        run_program(program, cnf, 10)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ('echo "s SATISFIABLE"; echo "v 1 2 0"; exit 10', "SAT"),
        ('echo "s UNSATISFIABLE"; exit 20', "UNSAT"),
        ('echo "s UNSATISFIABLE"', "UNSAT"),
        ('echo "s UNKNOWN"', "UNKNOWN"),
        ('echo "c why"; echo "s UNKNOWN"; exit 0', "UNKNOWN"),
        # a tab after the line letter, as DIMACS allows one (audit 20-B #3)
        ('printf "c\\tnote\\ns\\tSATISFIABLE\\nv\\t1 2 0\\n"; exit 10', "SAT"),
    ],
)
def test_other_program_answers(tmp_path, cnf, body, status):
    assert run_program(fake(tmp_path, "mysolver", body), cnf, 10).status == status


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("exit 0", "printed no 's' line"),
        ('echo "c thinking"; exit 0', "printed no 's' line"),
        ('echo "s SATISFIABLE"; echo "v 1 0"; exit 20', "answered SAT"),
        ('echo "s UNSATISFIABLE"; exit 10', "answered UNSAT"),
        ('echo "s SATISFIABLE"; echo "v 1 0"; exit 1', "exited with code 1"),
        ('echo "s UNKNOWN"; exit 10', "answered UNKNOWN"),
        # unknown is an answer only with exit 0, and only when an s (or CaDiCaL's c) line
        # says so, not when the word turns up in a message
        ('echo "s UNKNOWN"; exit 1', "exited with code 1"),
        ('echo "c internal error: UNKNOWN clause kind"; exit 3', "exited with code 3"),
        ('echo "c internal error: UNKNOWN clause kind"; exit 0', "printed no 's' line"),
        ('echo "SATISFIABLE"; exit 10', "expected a 'c', 's' or 'v' line"),
        # the line is one of the program's output, not of the program file
        ('echo "c hi"; echo "s SATISFIABLE"; echo "v 1 x 0"; exit 10',
         "unreadable output (line 3 of its output: expected a literal, found 'x')"),
        ('echo "s SATISFIABLE"; kill -SEGV $$', "signal 11"),
    ],
)
def test_other_program_misbehaving_is_a_crash(tmp_path, cnf, body, message):
    answer = run_program(fake(tmp_path, "mysolver", body), cnf, 10)
    assert answer.status == "crash" and message in answer.error


def slow_body(tmp_path, *, wrapper: bool) -> str:
    """A program's body that would write ``finished`` after 30 s, recording the pid of
    every process it runs in ``pids``. As a ``wrapper`` it is a script waiting for the
    real solver, which holds the output (as a wrapper without ``exec`` does)."""
    pids, finished, solver = tmp_path / "pids", tmp_path / "finished", tmp_path / "slow.py"
    solver.write_text(f"import time\ntime.sleep(30)\nopen({str(finished)!r}, 'w')\n")
    if wrapper:
        return f"echo $$ >> {pids}; {sys.executable} {solver} & echo $! >> {pids}; wait"
    return f"echo $$ >> {pids}; exec {sys.executable} {solver}"


def assert_killed(tmp_path, running) -> None:
    """Every process of a ``slow_body`` program is gone, and none ran to its end."""
    pids = [int(line) for line in (tmp_path / "pids").read_text().split()]
    assert pids and not any(running(pid) for pid in pids)
    assert not (tmp_path / "finished").exists()


@pytest.mark.parametrize("wrapper", [False, True], ids=["program", "wrapper"])
def test_other_program_deadline_kills_it(tmp_path, cnf, running, wrapper):
    program = fake(tmp_path, "mysolver", slow_body(tmp_path, wrapper=wrapper))
    assert run_program(program, cnf, 0.3).status == "timeout"
    assert_killed(tmp_path, running)


@pytest.mark.skipif(sys.platform == "win32", reason="signals to a child are POSIX")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_stopping_crosscheck_kills_the_programs_it_started(tmp_path, cnf, running, jobs, signum):
    program = fake(tmp_path, "mysolver", slow_body(tmp_path, wrapper=True))
    process = subprocess.Popen(
        [sys.executable, "-c", "from satkit import main; main()", "crosscheck", cnf,
         "--solvers", f"bin:{program}", "--jobs", jobs, "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )  # fmt: skip
    pids = tmp_path / "pids"
    while process.poll() is None and len(pids.read_text().split() if pids.exists() else ()) < 2:
        time.sleep(0.01)  # until the wrapper has started its solver
    process.send_signal(signum)
    _, err = process.communicate(timeout=120)
    assert "Traceback" not in err
    assert_killed(tmp_path, running)


def test_a_child_left_holding_the_output_does_not_delay_the_answer(tmp_path, cnf):
    # the program answers and exits at once, leaving a background child that holds its
    # stdout: the answer counts when the program exits (with pipes, the run waited for
    # the child until the deadline and was called a timeout)
    pids = tmp_path / "pids"
    body = f'sleep 30 & echo $! >> {pids}\necho "s SATISFIABLE"; echo "v 1 2 0"; exit 10'
    program = fake(tmp_path, "mysolver", body)
    try:
        answer = run_program(program, cnf, 20)
        assert (answer.status, answer.model) == ("SAT", [1, 2])  # not a timeout at 20 s
    finally:
        for pid in pids.read_text().split():
            with contextlib.suppress(OSError):
                os.kill(int(pid), signal.SIGKILL)


def assert_answers_sat_and_unsat(program, tmp_path) -> None:
    """``program`` finds a valid model of SAT and refutes UNSAT through run_program."""
    sat, unsat = tmp_path / "sat.cnf", tmp_path / "unsat.cnf"
    write_clauses(str(sat), 3, SAT)
    write_clauses(str(unsat), 1, UNSAT)
    answer = run_program(program, str(sat), 30)
    assert answer.status == "SAT" and model_problem(SAT, answer.model) is None
    assert run_program(program, str(unsat), 30).status == "UNSAT"


@pytest.mark.parametrize("real", ["cadical", "picosat"])
def test_wrapper_around_a_real_solver(tmp_path, real):
    found = shutil.which(real)
    if found is None:
        pytest.skip(f"{real} is not on PATH")
    program = fake(tmp_path, "mysolver", f'exec {found} "$@"')
    assert_answers_sat_and_unsat(program, tmp_path)
    with ExternalSolver(program, bootstrap_with=SAT) as solver:
        assert solver.solve() is True and solver.solve(assumptions=[-1, -3]) is False


def test_external_solver_names_a_program_it_cannot_run(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        ExternalSolver(str(tmp_path / "nothing-here"))
    script = tmp_path / "not-executable"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(ValueError, match="is not executable"):
        ExternalSolver(str(script))


def test_competition_output_is_read(tmp_path, cnf):
    program = fake(
        tmp_path, "cadical", 'echo "c hello"; echo "s SATISFIABLE"; echo "v 1 2 0"; exit 10'
    )
    answer = run_program(program, cnf, 10)
    assert (answer.status, answer.model, answer.returncode) == ("SAT", [1, 2], 10)
    program = fake(tmp_path, "kissat", 'echo "s UNSATISFIABLE"; exit 20')
    assert run_program(program, cnf, 10).status == "UNSAT"


def test_minisat_result_file_is_read(tmp_path, cnf):
    # argv: minisat -verb=0 IN OUT
    program = fake(tmp_path, "minisat", 'printf "SAT\\n1 -2 3 0\\n" > "$3"; echo noise; exit 10')
    answer = run_program(program, cnf, 10)
    assert (answer.status, answer.model) == ("SAT", [1, -2, 3])
    program = fake(tmp_path, "minisat", 'echo UNSAT > "$3"; exit 20')
    assert run_program(program, cnf, 10).status == "UNSAT"


def test_cadical_limit_without_s_line_is_unknown(tmp_path, cnf):
    program = fake(tmp_path, "cadical", 'echo "c UNKNOWN"; exit 0')
    assert run_program(program, cnf, 10).status == "UNKNOWN"


def test_picosat_parse_error_with_exit_0_is_a_crash(tmp_path, cnf):
    program = fake(tmp_path, "picosat", 'echo "in.cnf:2: expected number"; exit 0')
    answer = run_program(program, cnf, 10)
    assert answer.status == "crash"
    assert "expected a 'c', 's' or 'v' line" in answer.error


def test_silence_with_exit_0_is_a_crash(tmp_path, cnf):
    answer = run_program(fake(tmp_path, "picosat", "exit 0"), cnf, 10)
    assert answer.status == "crash" and "exited with code 0" in answer.error


def test_exit_code_must_match_the_answer(tmp_path, cnf):
    program = fake(tmp_path, "cadical", 'echo "s SATISFIABLE"; echo "v 1 0"; exit 0')
    answer = run_program(program, cnf, 10)
    assert answer.status == "crash" and "answered SAT" in answer.error


def test_minisat_parse_error_is_a_crash_with_its_message(tmp_path, cnf):
    program = fake(tmp_path, "minisat", 'echo "PARSE ERROR! Unexpected char: %" >&2; exit 3')
    answer = run_program(program, cnf, 10)
    assert answer.status == "crash"
    assert "exited with code 3" in answer.error and "PARSE ERROR" in answer.error


def test_a_killed_program_is_a_crash(tmp_path, cnf):
    answer = run_program(fake(tmp_path, "kissat", "kill -SEGV $$"), cnf, 10)
    assert answer.status == "crash" and "signal 11" in answer.error


@pytest.mark.parametrize("name", ["cadical", "minisat"])
@pytest.mark.parametrize("wrapper", [False, True], ids=["program", "wrapper"])
def test_deadline_kills_the_program(tmp_path, cnf, running, name, wrapper):
    program = fake(tmp_path, name, slow_body(tmp_path, wrapper=wrapper))
    assert run_program(program, cnf, 0.3).status == "timeout"
    assert_killed(tmp_path, running)


def test_missing_program(cnf):
    answer = run_program("/nonexistent/cadical", cnf, 10)
    assert answer.status == "crash" and "not found" in answer.error


def test_external_solver_raises_on_a_crash(tmp_path):
    program = fake(tmp_path, "picosat", "echo garbage; exit 0")
    solver = ExternalSolver(program, bootstrap_with=SAT)
    with pytest.raises(RuntimeError, match="exited with code 0"):
        solver.solve()


def test_external_solver_time_budget(tmp_path):
    solver = ExternalSolver(fake(tmp_path, "cadical", "exec sleep 30"), bootstrap_with=SAT)
    solver.time_budget(0.3)
    assert solver.solve_limited() is None
    with pytest.raises(RuntimeError, match="gave no answer"):
        ExternalSolver(fake(tmp_path, "cadical", 'echo "c UNKNOWN"'), bootstrap_with=SAT).solve()


@pytest.mark.parametrize("program", ["minisat", "cadical", "picosat", "kissat"])
def test_real_programs(program, tmp_path):
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not on PATH (CI installs minisat and cadical)")
    assert_answers_sat_and_unsat(program, tmp_path)


def test_real_program_on_a_path(tmp_path):
    path = shutil.which("cadical")
    if path is None:
        pytest.skip("cadical is not on PATH")
    cnf = tmp_path / "sat.cnf"
    write_clauses(str(cnf), 3, SAT)
    assert run_program(os.path.realpath(path), str(cnf), 30).status == "SAT"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_as_the_program_starts_never_leaves_it_running(tmp_path, cnf, running, monkeypatch):
    # Ctrl-C landing just as the handlers held during Popen are put back: run_program
    # must still kill the program it started (it used to leave it running)
    import types

    import crosscheck.external as external

    class CtrlCAsHandlersReturn(types.ModuleType):
        def __getattr__(self, name):
            return getattr(signal, name)

        def signal(self, number, handler):
            previous = signal.signal(number, handler)
            if number == signal.SIGINT and handler is signal.default_int_handler:
                signal.raise_signal(signal.SIGINT)
            return previous

    program = fake(tmp_path, "mysolver", slow_body(tmp_path, wrapper=False))
    monkeypatch.setattr(external, "signal", CtrlCAsHandlersReturn("signal"))
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        run_program(program, cnf, 30)
    assert signal.getsignal(signal.SIGTERM) is before  # put back despite the Ctrl-C
    pids = tmp_path / "pids"

    def written() -> list[str]:
        return pids.read_text().split() if pids.exists() else []

    for _ in range(100):  # a program left running writes its pid at once
        if written():
            break
        time.sleep(0.01)
    if written():  # it got as far as running its body: it must be gone now
        assert_killed(tmp_path, running)


def test_a_script_whose_interpreter_is_missing_is_named_as_such(tmp_path, cnf):
    # the kernel says "No such file or directory" and Python names the script, which
    # exists: a wrapper saved with Windows line ends (audit 17-C #5)
    crlf = tmp_path / "crlf"
    crlf.write_bytes(b'#!/bin/sh\r\nexec cadical "$1"\r\n')
    crlf.chmod(0o755)
    why = (
        f"{crlf}: its #! interpreter '/bin/sh\\r' does not exist (the line ends in a "
        "carriage return: Windows line ends)"
    )
    assert program_problem(str(crlf)) == why
    answer = run_program(str(crlf), cnf, 30)
    assert (answer.status, answer.error) == ("crash", f"cannot start {crlf}: {why}")
    missing = tmp_path / "missing-interpreter"
    missing.write_text("#!/no/such/interpreter -x\n")
    missing.chmod(0o755)
    assert program_problem(str(missing)) == (
        f"{missing}: its #! interpreter '/no/such/interpreter' does not exist"
    )
    fine = fake(tmp_path, "fine", "exit 0")
    assert program_problem(fine) is None


def test_comments_are_not_held_but_line_numbers_and_odd_line_ends_are(tmp_path, cnf):
    # a chatty program's comments are dropped while its output is read (300 MB of them
    # took 1.2 GB; audit 17-C #7); what the reader sees of the rest is unchanged
    chatty = fake(tmp_path, "chatty", 'yes "c chatter" | head -n 200000\necho "s SATISFIABLE"\n'
                  'echo "v 1 -2 3 0"\nexit 10')  # fmt: skip
    answer = run_program(chatty, cnf, 30)
    assert (answer.status, answer.model) == ("SAT", [1, -2, 3])
    output = "c a\\nc b\\ns SATISFIABLE\\nv 1 -2 3\\n"
    unclosed = fake(tmp_path, "unclosed", f'printf "{output}"\nexit 10')
    answer = run_program(unclosed, cnf, 30)
    assert answer.status == "crash"
    assert "(line 4 of its output: value lines do not end" in answer.error
    # a carriage return inside a comment ends a line for the reader: what follows it counts
    hidden = fake(tmp_path, "hidden", 'printf "c x\\rs UNSATISFIABLE\\n"\nexit 20')
    assert run_program(hidden, cnf, 30).status == "UNSAT"
    unknown = fake(tmp_path, "unknown", 'printf "c chatter\\nc UNKNOWN\\n"\nexit 0')
    assert run_program(unknown, cnf, 30).status == "UNKNOWN"
    # a comment ending in CR CR LF is two lines for the reader (review 17 #9)
    double = fake(tmp_path, "double", 'printf "c x\\r\\r\\ns SATISFIABLE\\nv 1 -2 3\\n"\nexit 10')
    assert "(line 4 of its output: value lines do not end" in run_program(double, cnf, 30).error


def test_an_export_that_does_not_fit_on_the_disk_is_the_machine_s_failure():
    from formats.errors import EnvironmentFailure

    with pytest.raises(EnvironmentFailure, match=r"DIMACS export .* No space left on device"):
        write_clauses("/dev/full", 3, [[1, 2, 3]] * 10000)


def test_a_crash_s_reason_survives_a_long_error_output(tmp_path, cnf):
    # the detail kept the last 400 characters of reason + output: a verbose program's
    # reason was cut off, and shrinking took each smaller formula for another failure
    # (review 17 #2)
    from crosscheck.shrink import crash_kind

    verbose = fake(tmp_path, "verbose", 'yes "c statistics line" | head -n 500 >&2\n'
                   'printf "s SATISFIABLE\\nv 1 -2 3\\n"\nexit 10')  # fmt: skip
    answer = run_program(verbose, cnf, 30)
    assert answer.status == "crash"
    assert crash_kind(answer.error) == "exit 10, unreadable output: value lines do not end with N"
    assert answer.error.endswith("c statistics line")  # the tail is still shown


@pytest.mark.parametrize(
    "line", ["c " + "x" * 198, "c\t" + "x" * 198, "c progress: UNKNOWN so far"]
)
def test_a_program_s_comments_are_not_held_in_memory(tmp_path, cnf, line):
    # 20 MB of comments took 4 times their size (audit 17-C #7); keeping every comment that
    # named UNKNOWN undid that for a solver repeating it (review 17b #3)
    import tracemalloc

    chatty = fake(tmp_path, "chatty", f'yes "{line}" | head -n 100000\n'
                  'echo "s SATISFIABLE"\necho "v 1 -2 3 0"\nexit 10')  # fmt: skip
    tracemalloc.start()
    try:
        answer = run_program(chatty, cnf, 60)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer.status == "SAT" and peak < 5_000_000


def test_a_broken_answer_on_a_full_tmpdir_is_the_machine_s_failure(tmp_path, cnf, monkeypatch):
    # the program's captured output may have been cut by the full disk: it was reported as
    # the program's crash (review 17b #8)
    import crosscheck.external as external
    from formats.errors import EnvironmentFailure

    monkeypatch.setattr(external, "_no_space_left", lambda folder: True)
    broken = fake(tmp_path, "broken", 'echo "c the s line was lost"\nexit 10')
    with pytest.raises(EnvironmentFailure, match=r"cannot keep the output of .*broken"):
        run_program(broken, cnf, 30)
    fine = fake(tmp_path, "fine", 'printf "s SATISFIABLE\\nv 1 -2 3 0\\n"\nexit 10')
    assert run_program(fine, cnf, 30).status == "SAT"  # a whole answer stands


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")
def test_what_a_program_leaves_running_when_it_ends_is_killed(tmp_path, cnf):
    # a wrapper racing solvers answered and exited; its helpers ran on after crosscheck
    # ended, adopted by init (audit 21-C #4), a detached `( setsid … & )` one too
    pids = tmp_path / "pids"
    program = fake(
        tmp_path, "cadical",
        f"sleep 30 & echo $! >> {pids}\n( setsid sleep 31 & echo $! >> {pids} )\n"
        'echo "s SATISFIABLE"; echo "v 1 2 -3 0"; exit 10',
    )  # fmt: skip
    answer = run_program(program, str(cnf), timeout=20)
    assert answer.status == "SAT"
    left = [int(pid) for pid in pids.read_text().split()]
    assert len(left) == 2
    for pid in left:
        with pytest.raises(ProcessLookupError):  # killed and reaped, not a zombie of ours
            os.kill(pid, 0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux subreaper")
def test_a_program_that_ends_leaves_another_threads_program_running(tmp_path, cnf):
    # a program that ended killed, as its leftover, the program another thread had
    # started while it ran (review 21 #4)
    import threading

    def waiting(name: str) -> tuple[str, Path, Path]:
        started, go_on = tmp_path / f"{name}-started", tmp_path / f"{name}-go-on"
        program = fake(
            tmp_path, "cadical",
            f"touch {started}\nwhile [ ! -e {go_on} ]; do sleep 0.05; done\n"
            'echo "s SATISFIABLE"; echo "v 1 2 -3 0"; exit 10',
        )  # fmt: skip
        return program, started, go_on

    def wait_for(path: Path) -> None:
        while not path.exists():
            time.sleep(0.01)

    answers: dict[str, str] = {}

    def run(name: str, program: str) -> None:
        answers[name] = run_program(program, cnf, 60).status

    first, first_started, first_go_on = waiting("first")
    second, second_started, second_go_on = waiting("second")
    threads = [threading.Thread(target=run, args=(name, program))
               for name, program in (("first", first), ("second", second))]  # fmt: skip
    try:
        threads[0].start()
        wait_for(first_started)
        threads[1].start()  # after the first took its list of children
        wait_for(second_started)
        first_go_on.touch()
        threads[0].join()
    finally:
        first_go_on.touch()
        second_go_on.touch()
        for thread in threads:
            if thread.ident is not None:  # (started)
                thread.join()
    assert answers == {"first": "SAT", "second": "SAT"}
