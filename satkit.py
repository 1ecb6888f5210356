"""The `satkit` command line: one click group that gathers every package's commands."""

from __future__ import annotations

import importlib
import os
import signal
import sys

import click

COMMANDS: dict[str, str] = {
    "convert": "formats.cli",
    "stats": "formats.cli",
    "solve": "dpll.cli",
    "dp": "dpll.cli",
    "maze": "maze.cli",
    "puzzle": "puzzles.cli",
    "crosscheck": "crosscheck.cli",
    "fuzz": "crosscheck.cli",
    "shrink": "crosscheck.cli",
}
"""Command name -> the ``cli.py`` module whose ``commands`` list holds it.

A module is imported when one of its commands is first asked for, so ``satkit solve``
does not pay for importing the cross-checker and the puzzles (the whole group took
150 ms to import, 83 ms of it ``crosscheck.cli``)."""


class _LazyGroup(click.Group):
    """A click group that imports each command's module only when the command is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        for command in importlib.import_module(module).commands:
            if command.name == cmd_name:
                return command
        raise LookupError(f"{module}.commands has no command {cmd_name!r} (see satkit.COMMANDS)")


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="dimacs-satkit")
def main() -> None:
    """satkit: solve DIMACS CNF with a pure-Python DPLL, run the maze treasure hunt,
    export CNF for other solvers, and cross-check answers against real solvers."""
    from formats.streams import buffer_stdout

    buffer_stdout()


QUICK_COMMANDS = frozenset({"solve", "dp"})
"""Commands whose process ends at once after its answer (see `run`)."""


def run() -> None:
    """The console entry point: `main`, and for ``solve`` and ``dp`` a quick exit.

    Their solver can hold gigabytes of small objects: freeing them and the garbage
    collector's last pass took 10 s and more after the answer, and a second Ctrl-C
    meanwhile printed a traceback from the interpreter's shutdown. Once the command
    has ended (its outputs flushed, files renamed into place), the process exits at
    once, and a Ctrl-C until then just ends it.
    """
    from formats.cli import QUICK_EXIT

    if next((word for word in sys.argv[1:] if not word.startswith("-")), None) in QUICK_COMMANDS:
        QUICK_EXIT[0] = True
    try:
        main()
    except SystemExit as stop:
        code = stop.code
    else:  # (click's standalone mode always ends in SystemExit)
        code = 0
    if not isinstance(code, int):
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    command = next((word for word in sys.argv[1:] if not word.startswith("-")), None)
    if command not in QUICK_COMMANDS:
        sys.exit(code)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        code = code or 1
    os._exit(code)


if __name__ == "__main__":
    run()
