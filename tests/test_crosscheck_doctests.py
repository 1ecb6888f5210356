"""The runnable examples in the crosscheck modules' docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "crosscheck.generators",
    "crosscheck.isolate",
    "crosscheck.plot",
    "crosscheck.registry",
    "crosscheck.shrink",
    "crosscheck.validate",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0, f"{name} has no examples"
    assert failures == 0
