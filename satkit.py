"""The `satkit` command line: one click group that gathers every package's commands."""

import click

from crosscheck.cli import commands as crosscheck_commands
from dpll.cli import commands as dpll_commands
from formats.cli import commands as formats_commands
from maze.cli import commands as maze_commands
from puzzles.cli import commands as puzzles_commands


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="dimacs-satkit")
def main() -> None:
    """satkit: solve DIMACS CNF with a pure-Python DPLL, run the maze treasure hunt,
    export CNF for other solvers, and cross-check answers against real solvers."""


for _command in (
    *formats_commands,
    *dpll_commands,
    *maze_commands,
    *puzzles_commands,
    *crosscheck_commands,
):
    main.add_command(_command)


if __name__ == "__main__":
    main()
