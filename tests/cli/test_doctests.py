"""The examples in the CLI modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "cache",
    "cli",
    "config",
    "discovery",
    "fileio",
    "runner",
    "serialize",
    "output",
    "output.report",
    "output.statistics",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"xlalens.analyzers.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
