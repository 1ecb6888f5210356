"""The `satkit` command line: one click group that gathers every package's commands."""

from __future__ import annotations

import importlib
import os
import sys

import click

__version__ = "0.1.0"
"""The version (pyproject.toml reads it from here)."""

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

SUMMARIES: dict[str, str] = {
    "convert": "Convert between DIMACS CNF and the assignment's DP input.",
    "crosscheck": "Run our DPLL beside reference solvers; check every answer.",
    "dp": "The assignment's Davis-Putnam program: DP input to DP output.",
    "fuzz": "Cross-check random CNFs and mazes against reference solvers.",
    "maze": "The maze treasure hunt: encode, solve, decode, show, generate.",
    "puzzle": "The seeds' puzzles: zebra puzzles (Einstein's) and Hitman.",
    "shrink": "Cut a CNF down to a small one that still fails a check.",
    "solve": "Solve a DIMACS CNF file with our DPLL (SAT-competition output).",
    "stats": "Describe a CNF: sizes, lengths, pure literals, duplicates.",
}
"""What ``satkit --help`` says of each command, so that it imports none of them (it took
twice as long as a solve); each command's ``short_help`` is the same text (a test checks)."""


class _LazyGroup(click.Group):
    """A click group that imports each command's module only when the command is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, SUMMARIES[name]) for name in self.list_commands(ctx)])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        for command in importlib.import_module(module).commands:
            if command.name == cmd_name:
                return command
        raise LookupError(f"{module}.commands has no command {cmd_name!r} (see satkit.COMMANDS)")

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; a Ctrl-C before the command's own handlers are on, while its
        module is imported, ends it as an interrupt (exit 130), not with click's
        ``Aborted!`` and exit 1, which says bad input (audit 27-A #3). This holds for the
        solving commands too, whose 0 says "unknown": not started, they have no answer
        (README, exit codes; review 27 #2)."""
        from formats.console import WRITTEN, interrupted_unanswered

        WRITTEN.clear()  # (a caller of ``main`` may run several commands in one process)
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted_unanswered()


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="satkit")
def main() -> None:
    """satkit: solve DIMACS CNF with a pure-Python DPLL, run the maze treasure hunt,
    export CNF for other solvers, and cross-check answers against real solvers."""
    from formats.streams import buffer_stdout

    buffer_stdout()


@main.result_callback()
def _exit_code(result: object) -> object:
    """From Python (``main([...], standalone_mode=False)``) every command returns its exit
    code: a command that ends by returning, as ``stats`` and ``convert`` do, returns 0."""
    return 0 if result is None else result


QUICK_COMMANDS = frozenset({"solve", "dp"})
"""Commands whose process ends as soon as their answer is out (`formats.console.answered`)."""


def run() -> None:
    """The console entry point: `main`, letting ``solve`` and ``dp`` end the process as
    soon as their answer is out (`formats.console.answered`): a big solver is not freed
    object by object first, and a Ctrl-C meanwhile prints no shutdown traceback. Standard
    output is flushed here, so that a reader that closed it early is not reported."""
    from formats.console import (
        EXIT_BROKEN_PIPE,
        QUICK_EXIT,
        STDOUT_CLOSED,
        fail_unwritten,
        finish_stdout,
        forgive_stderr,
    )

    command = next((word for word in sys.argv[1:] if not word.startswith("-")), None)
    QUICK_EXIT[0] = command in QUICK_COMMANDS
    # started with stdout or stderr closed (`>&-`, `2>&-`): Python makes it None; what
    # goes there goes nowhere, quietly, and the exit code still says the answer (as
    # minisat does), instead of a traceback and exit 1
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the process's life
        STDOUT_CLOSED[0] = True  # (an output file '-' is an error: nothing would be written)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - for the process's life
    else:
        forgive_stderr()  # a warning that cannot be written does not cost the answer
    try:
        main()
    except SystemExit as exc:
        # click meets a closed pipe in its own output (help, version) by wrapping the
        # streams in PacifyFlushWrapper and exiting 1: that is a closed pipe too
        if exc.code == 1 and "PacifyFlushWrapper" in type(sys.stdout).__name__:
            raise SystemExit(EXIT_BROKEN_PIPE) from None
        raise
    except OSError as exc:  # click's own output (help, version) on a full disk, say
        fail_unwritten(exc)
    finally:
        finish_stdout()  # a closed pipe (`| head`): exit 141 quietly, as C tools do


if __name__ == "__main__":
    run()
