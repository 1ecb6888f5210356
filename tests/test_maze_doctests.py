"""The runnable examples in the maze modules' docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "maze.cnf",
    "maze.decoder",
    "maze.generator",
    "maze.key",
    "maze.model",
    "maze.parser",
    "maze.pipeline",
    "maze.search",
    "maze.validator",
    "maze.writer",
    "crosscheck.registry",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0, f"{name} has no examples"
    assert failures == 0
