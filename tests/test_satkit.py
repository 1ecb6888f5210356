"""The `satkit` group: every package's commands are reachable, each imported only when used."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

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
