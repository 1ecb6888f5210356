"""Commands that drive the `crosscheck` package (edge code: the only place here that prints)."""

import click

commands: list[click.Command] = []
