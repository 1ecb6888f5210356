"""The `satkit` group: every package's commands are reachable, each imported only when used."""

from __future__ import annotations

import doctest
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import satkit

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("formats", "dpll", "maze", "puzzles", "crosscheck")


def test_the_table_names_exactly_the_commands_of_every_cli_module() -> None:
    declared = {}
    for package in PACKAGES:
        module = f"{package}.cli"
        for command in importlib.import_module(module).commands:
            declared[command.name] = module
    assert declared == satkit.COMMANDS


def test_help_lists_every_command_and_each_one_answers_help() -> None:
    result = CliRunner().invoke(satkit.main, ["--help"])
    assert result.exit_code == 0
    for name in satkit.COMMANDS:
        assert f"  {name} " in result.output
        assert CliRunner().invoke(satkit.main, [name, "--help"]).exit_code == 0


def test_help_says_what_each_command_says_of_itself() -> None:
    # `satkit --help` reads satkit.SUMMARIES so that it imports no command module
    for package in PACKAGES:
        for command in importlib.import_module(f"{package}.cli").commands:
            assert command.get_short_help_str(limit=1000) == satkit.SUMMARIES[command.name]
    assert set(satkit.SUMMARIES) == set(satkit.COMMANDS)
    output = CliRunner().invoke(satkit.main, ["--help"]).output
    for name, summary in satkit.SUMMARIES.items():
        assert f"  {name}{' ' * (12 - len(name))}{summary}\n" in output  # one line each


def _modules_after(args: list[str], *modules: str) -> list[bool]:
    """Run `satkit ARGS` through the console entry point (`satkit.run`) in a fresh
    interpreter: which of ``modules`` it imported (told at exit, so not for `solve` and
    `dp`, whose process ends at once)."""
    code = (
        "import atexit, os, sys, satkit\n"
        f"names = {list(modules)!r}\n"
        "atexit.register(lambda: os.write(99, repr([m in sys.modules for m in names]).encode()))\n"
        f"sys.argv = ['satkit', *{args!r}]\n"
        "satkit.run()\n"
    )
    read, write = os.pipe()
    os.dup2(write, 99)  # (stdout carries the command's own output)
    os.close(write)
    try:
        subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, pass_fds=(99,))
    finally:
        os.close(99)
    with os.fdopen(read) as report:
        return eval(report.read())


def test_help_and_version_import_no_command() -> None:
    # --help imported every command's module (crosscheck, psutil, puzzles, pysat.card) to
    # print their summaries: twice a solve's start-up; --version read importlib.metadata
    heavy = ("formats.cli", "dpll.cli", "maze.cli", "puzzles.cli", "crosscheck.cli", "psutil")
    heavy += ("formats.streams", "formats.dimacs")  # (the entry point's plumbing is light)
    assert _modules_after(["--help"], *heavy) == [False] * len(heavy)
    assert _modules_after(["--version"], *heavy, "importlib.metadata") == [False] * 9


def test_the_zebra_puzzles_do_not_load_hitman() -> None:
    # the Hitman modules and pysat.card cost 6.6 ms of a 55 ms start (audit 18-A #5)
    loaded = _modules_after(["puzzle", "einstein"], "puzzles.hitman_explore", "pysat.card")
    assert loaded == [False, False]


def test_maze_solve_with_our_solver_does_not_load_psutil() -> None:
    args = ["maze", "solve", "-q", "data/maze/example.txt"]
    assert _modules_after(args, "psutil", "crosscheck.external") == [False, False]


def test_the_version_is_the_installed_one() -> None:
    from importlib.metadata import version

    assert satkit.__version__ == version("dimacs-satkit")
    assert CliRunner().invoke(satkit.main, ["--version"]).output == (
        f"satkit, version {satkit.__version__}\n"
    )


def test_an_unknown_command_is_a_usage_error() -> None:
    result = CliRunner().invoke(satkit.main, ["sovle"])
    assert result.exit_code == 2
    assert "No such command 'sovle'" in result.output


def test_solve_does_not_import_the_cross_checker() -> None:
    """In a fresh interpreter: `satkit solve` loads dpll's commands, not crosscheck's."""
    code = (
        "import sys; from satkit import main\n"
        "try:\n    main(['solve', '-q', 'data/cnf/queens4.cnf'])\n"
        "except SystemExit as done:\n"
        "    print(done.code, 'crosscheck.cli' in sys.modules, 'puzzles.cli' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.splitlines()[-1] == "10 False False"


LAYERS = {"formats": set(), "dpll": {"formats"}, "maze": {"formats", "dpll"}}
LAYERS["puzzles"] = LAYERS["maze"]
LAYERS["crosscheck"] = {"formats", "dpll", "maze", "puzzles"}


def test_library_modules_import_no_command_module_and_follow_the_layers() -> None:
    """DESIGN.md: library modules never import a ``cli.py``, and imports go one way
    (formats <- dpll <- maze, puzzles <- crosscheck). crosscheck's program runner and
    worker pool imported formats.cli (and with it click) for one constant (audit 19-C #4)."""
    library = sorted(
        f"{path.parent.name}.{path.stem}"
        for package in LAYERS
        for path in (ROOT / package).glob("*.py")
        if path.stem not in ("cli", "__init__")
    )
    code = (
        "import importlib, sys\n"
        "name = sys.argv[1]\n"
        "importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{sorted(LAYERS)!r}))\n"
    )
    wrong = {}
    for name in library:
        done = subprocess.run(
            [sys.executable, "-c", code, name], capture_output=True, text=True, cwd=ROOT
        )
        assert done.returncode == 0, done.stderr
        loaded = eval(done.stdout)
        allowed = LAYERS[name.split(".")[0]] | {name.split(".")[0]}
        bad = [m for m in loaded if m.endswith(".cli") or m.split(".")[0] not in allowed]
        if bad:
            wrong[name] = bad
    assert wrong == {}


@pytest.mark.parametrize(
    "name",
    sorted(
        f"{path.parent.name}.{path.stem}".removesuffix(".__init__")
        for package in LAYERS
        for path in (ROOT / package).glob("*.py")
        if ">>> " in path.read_text(encoding="utf-8")
    ),
)
def test_docstring_examples(name: str) -> None:
    """Every module's runnable examples stay true, found by looking, not by a list: the
    examples of formats.results could not even be collected, and no list named it (19-C #8)."""
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0, f"{name} holds '>>> ' but doctest finds no example"
    assert failures == 0


DATA = ROOT / "data"


def test_an_empty_output_name_is_one_error_line_before_any_work() -> None:
    # `--cnf ''` solved or explored first and then named a temporary file; `solve --proof ''`
    # and `crosscheck --json ''` ignored the option (`--plot ''` is a usage error: no format)
    commands = [
        ["puzzle", "solve", DATA / "puzzles" / "harbour-lane.json", "--cnf", ""],
        ["puzzle", "einstein", "--cnf", ""],
        ["solve", DATA / "cnf" / "queens4.cnf", "--proof", ""],
        ["dp", DATA / "maze" / "small.txt", "-o", ""],
        ["convert", DATA / "maze" / "small.txt", "-o", ""],
        ["maze", "solve", DATA / "maze" / "small.txt", "-o", ""],
        ["crosscheck", DATA / "cnf" / "queens4.cnf", "-s", "dpll", "--json", ""],
        ["shrink", DATA / "cnf" / "queens4.cnf", "-o", ""],
        ["fuzz", "-n", "1", "--json", ""],
    ]
    for command in commands:
        result = CliRunner().invoke(satkit.main, [str(part) for part in command])
        assert result.exit_code == 1, command
        assert result.stderr == "error: '': an empty name is no output file\n", command
        assert result.stdout == "", command


def test_output_cut_short_by_a_size_limit_is_an_error_even_unbuffered(tmp_path: Path) -> None:
    # under PYTHONUNBUFFERED (or -u) one big write to a file that reaches its size limit
    # wrote a part, and the text layer dropped the rest: a cut-off model with exit 10
    import os
    import resource

    n = 60_000
    cnf = tmp_path / "chain.cnf"
    chain = "".join(f"{i} -{i + 1} 0\n" for i in range(1, n))
    cnf.write_text(f"p cnf {n} {n}\n{chain}{n} 0\n")
    limit = 64 * 1024  # the model's v lines take about 400 KB

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    for unbuffered in ("1", ""):
        with open(tmp_path / "out.txt", "wb") as out:
            done = subprocess.run(
                [sys.executable, "-m", "satkit", "solve", "-q", str(cnf)],
                stdout=out, stderr=subprocess.PIPE, preexec_fn=small_files,
                env={**os.environ, "PYTHONUNBUFFERED": unbuffered},
                cwd=ROOT, check=False,
            )  # fmt: skip
        assert done.returncode == 1, (unbuffered, done.stderr)
        assert done.stderr.decode() == "error: <stdout>: File too large\n"


def test_the_console_entry_ends_solve_and_dp_at_once_with_their_exit_codes(tmp_path: Path) -> None:
    # `satkit` (satkit.run) ends solve and dp with os._exit once the answer is out: the
    # codes, the output and the files must be those of a normal exit
    entry = [sys.executable, "-c", "import satkit; satkit.run()"]
    sat = tmp_path / "sat.cnf"
    sat.write_text("p cnf 2 1\n1 2 0\n")
    unsat = tmp_path / "unsat.cnf"
    unsat.write_text("p cnf 1 2\n1 0\n-1 0\n")
    done = subprocess.run([*entry, "solve", "-q", str(sat)], capture_output=True, text=True,
                          cwd=ROOT, check=False)  # fmt: skip
    assert done.returncode == 10 and done.stdout.startswith("s SATISFIABLE\nv ")
    proof = tmp_path / "p.drup"
    done = subprocess.run([*entry, "solve", "-q", str(unsat), "--proof", str(proof)],
                          capture_output=True, text=True, cwd=ROOT, check=False)  # fmt: skip
    assert done.returncode == 20 and proof.read_text().endswith("0\n")
    with open("/dev/full", "w") as full:
        done = subprocess.run([*entry, "solve", "-q", str(sat)], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, check=False)  # fmt: skip
    assert done.returncode == 1 and done.stderr == "error: <stdout>: No space left on device\n"
    dp_in, dp_out = tmp_path / "u.txt", tmp_path / "u.out"
    dp_in.write_text("1\n-1\n0\nkey\n")
    done = subprocess.run([*entry, "dp", str(dp_in), "-o", str(dp_out)], capture_output=True,
                          cwd=ROOT, check=False)  # fmt: skip
    assert done.returncode == 0 and dp_out.read_text() == "0\nkey\n"
    done = subprocess.run([*entry, "stats", str(sat)], capture_output=True, text=True,
                          cwd=ROOT, check=False)  # fmt: skip
    assert done.returncode == 0 and "clauses" in done.stdout


def _closed_early(args: list[str], read: int) -> tuple[int, bytes]:
    """Run ``python -m satkit ARGS`` with a reader that reads ``read`` bytes of its
    standard output and closes it (``| head -c``); the exit code and the stderr."""
    child = subprocess.Popen(
        [sys.executable, "-m", "satkit", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert child.stdout is not None and child.stderr is not None
    if read:
        child.stdout.read(read)
    child.stdout.close()
    err = child.stderr.read()
    return child.wait(timeout=300), err


def test_a_reader_that_closes_stdout_early_ends_the_command_quietly_with_141(tmp_path) -> None:
    # as minisat or cadical ended by SIGPIPE (`| head`): no "Exception ignored …
    # BrokenPipeError" on stderr and exit 120, no exit 1 ("bad input") (audit 16-C)
    maze = ["maze", "generate", "--nodes", "20000", "--treasures", "3", "--steps", "5"]
    assert _closed_early(maze, 10) == (141, b"")  # a write fails while the command runs
    cnf = tmp_path / "small.cnf"
    cnf.write_text("p cnf 2 2\n1 2 0\n-1 0\n")
    for args in (["stats", str(cnf)], ["solve", str(cnf)], ["convert", str(cnf)]):
        # closed before the command writes: its output fails at the last flush
        assert _closed_early(args, 0) == (141, b""), args
    # click's help and version output: click turns EPIPE into exit 1 before our code
    # sees it (review 16 #4)
    for args in (["--help"], ["solve", "--help"], ["--version"]):
        assert _closed_early(args, 0) == (141, b""), args


def test_help_and_version_on_a_full_disk_are_one_error_line() -> None:
    # click writes these itself, outside any command's error handling: a traceback before
    for args in (["--help"], ["solve", "--help"], ["--version"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "satkit", *args],
                stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, check=False,
            )  # fmt: skip
        expected = (1, "error: <stdout>: No space left on device\n")
        assert (done.returncode, done.stderr) == expected, args


def test_a_warning_that_cannot_be_written_does_not_cost_the_answer(tmp_path) -> None:
    # stderr on a full disk (2>/dev/full, 2>>log): the command stopped at its first
    # warning with exit 1 and no answer; minisat answers (audit 17-B #1)
    lying = tmp_path / "lying.cnf"
    lying.write_text("p cnf 2 1\n1 2 0\n-1 0\n")  # a warning: 2 clauses, not 1
    dp_in, dp_out = tmp_path / "in.dp", tmp_path / "out.dp"
    dp_in.write_bytes(b"1 2\n0\nback\xe9\n")  # a warning: back matter not UTF-8
    runs = [(["solve", str(lying)], 10, "s SATISFIABLE"), (["stats", str(lying)], 0, "clauses"),
            (["dp", str(dp_in), "-o", str(dp_out)], 0, "")]  # fmt: skip
    for args, code, shown in runs:
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "satkit", *args], stdout=subprocess.PIPE,
                                  stderr=full, text=True, cwd=ROOT, check=False)  # fmt: skip
        assert done.returncode == code and shown in done.stdout, args
    assert dp_out.read_bytes().startswith(b"1 T\n")


def test_bad_input_under_nohup_is_one_error_line(tmp_path) -> None:
    # with SIGHUP (or SIGTERM) ignored at start, every bad input became a double traceback
    # ("generator didn't stop after throw()"; review 17b #1)
    import signal

    def ignore() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)

    for args in (["solve", "missing.cnf"], ["stats", "missing.cnf"], ["maze", "solve", "m.txt"]):
        done = subprocess.run([sys.executable, "-m", "satkit", *args], capture_output=True,
                              text=True, cwd=tmp_path, preexec_fn=ignore, check=False,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
        assert done.returncode == 1 and done.stderr.startswith("error: "), (args, done.stderr)
        assert done.stderr.count("\n") == 1, done.stderr


def test_main_without_standalone_mode_returns_each_command_s_exit_code(tmp_path) -> None:
    # click's convention: a calling script gets the code back instead of SystemExit
    # (solve, dp, maze solve, puzzle and crosscheck raised it; audit 16-A)
    sat = tmp_path / "sat.cnf"
    sat.write_text("p cnf 3 2\n1 -2 0\n2 3 0\n")
    unsat = tmp_path / "unsat.cnf"
    unsat.write_text("p cnf 1 2\n1 0\n-1 0\n")
    dp_in = tmp_path / "in.dp"
    dp_in.write_text("1 2\n0\n")
    calls = [
        (["solve", str(sat)], 10),
        (["solve", str(unsat)], 20),
        (["dp", str(dp_in), "-o", str(tmp_path / "out.dp")], 0),
        (["maze", "solve", str(ROOT / "data" / "maze" / "example.txt")], 10),
        (["puzzle", "einstein"], 10),
        (["crosscheck", str(sat), "-q", "-s", "dpll"], 0),
        # bad input too (it raised SystemExit(1); audit 17-D #6)
        (["solve", str(tmp_path / "missing.cnf")], 1),
        (["maze", "solve", str(tmp_path / "missing.txt")], 1),
        (["convert", str(tmp_path / "missing.cnf")], 1),
        # commands that end by returning gave None (audit 18-E #5)
        (["stats", str(sat)], 0),
        (["convert", str(sat), "-o", str(tmp_path / "out.txt")], 0),
        (["maze", "encode", str(ROOT / "data" / "maze" / "small.txt"), "-o", "-"], 0),
        (["maze", "generate", "--nodes", "4", "--treasures", "1", "-k", "2"], 0),
    ]
    for args, code in calls:
        assert satkit.main(args, standalone_mode=False) == code, args


@pytest.mark.parametrize("closed", [1, 2], ids=["stdout", "stderr"])
def test_commands_keep_their_exit_codes_when_started_with_stdout_or_stderr_closed(
    tmp_path, closed: int
) -> None:
    # (`>&-`, `2>&-`): Python makes the stream None; solve and dp exited 1 after the
    # answer (stderr), or with a traceback (stdout) (review 16); minisat exits 10
    import os

    sat = tmp_path / "sat.cnf"
    sat.write_text("p cnf 2 1\n1 2 0\n")
    dp_in = tmp_path / "in.dp"
    dp_in.write_text("1 2\n0\n")
    for args, code in (
        (["solve", str(sat)], 10),
        (["dp", str(dp_in), "-o", str(tmp_path / "out.dp")], 0),
        (["stats", str(sat)], 1 if closed == 1 else 0),  # (its output is its product)
        (["maze", "solve", str(ROOT / "data" / "maze" / "example.txt")], 10),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "satkit", *args],
            capture_output=True,
            preexec_fn=lambda: os.close(closed),
            cwd=ROOT,
            timeout=120,
        )
        assert done.returncode == code, args
        assert b"Traceback" not in done.stdout + done.stderr
    assert (tmp_path / "out.dp").read_text().startswith("1 T\n")
    if closed == 1:  # a product written to '-' that goes nowhere is no success (audit 22-B #3)
        for args in (["dp", str(dp_in)], ["convert", str(sat)], ["stats", str(sat)]):
            done = subprocess.run(
                [sys.executable, "-m", "satkit", *args], capture_output=True,
                preexec_fn=lambda: os.close(1), cwd=ROOT, timeout=120,
            )  # fmt: skip
            assert (done.returncode, done.stderr) == (
                1, b"error: <stdout>: closed (started with >&-): nothing written\n"), args
        done = subprocess.run(  # the input's error first, as for dp (review 22b #5)
            [sys.executable, "-m", "satkit", "stats", str(tmp_path / "nosuch.cnf")],
            capture_output=True, preexec_fn=lambda: os.close(1), cwd=ROOT, timeout=120,
        )  # fmt: skip
        assert done.stderr.endswith(b"nosuch.cnf: no such file\n")


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--seed", "-1", "data/cnf/queens4.cnf"],
        ["dp", "--seed", "-1", "data/dp/example.txt"],
        ["maze", "generate", "--nodes", "5", "--seed", "-1"],
        ["maze", "solve", "--seed", "-1", "data/maze/example.txt"],
        ["crosscheck", "--seed", "-1", "data/cnf/queens4.cnf"],
        ["shrink", "--seed", "-1", "data/cnf/queens4.cnf"],
        ["fuzz", "--solver-seed", "-1"],
        ["puzzle", "einstein", "--seed", "-1"],
    ],
)
def test_every_seed_is_0_or_more(args, monkeypatch) -> None:
    # random.Random(-S) is random.Random(S): `maze generate --seed -5` gave seed 5's maze
    # without a word, where fuzz refused it (audit 20-C #5)
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    result = CliRunner().invoke(satkit.main, args)
    assert result.exit_code == 2 and "-1 is not in the range x>=0" in result.output


def test_the_libraries_refuse_a_negative_seed_too() -> None:
    from dpll import Solver
    from maze.generator import generate_maze

    with pytest.raises(ValueError, match="seed must be 0 or more, not -1"):
        Solver(seed=-1)
    with pytest.raises(ValueError, match="seed must be 0 or more, not -1"):
        generate_maze(6, 2, 4, seed=-1)


def test_ctrl_c_while_a_command_module_is_imported_is_an_interrupt_not_bad_input(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # click printed "Aborted!" and exited 1, the code for bad input (audit 27-A #3)
    def interrupted(name: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(satkit.importlib, "import_module", interrupted)
    result = CliRunner().invoke(satkit.main, ["solve", "x.cnf"])
    assert (result.exit_code, result.stdout) == (130, "")
    assert result.stderr == "interrupted: nothing written\n"
