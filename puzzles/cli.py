"""Commands that drive the `puzzles` package (edge code: the only place here that prints)."""

import click

commands: list[click.Command] = []
