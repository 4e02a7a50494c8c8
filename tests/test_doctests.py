"""The examples in docstrings are tests too: run every module's doctests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
import xlalens.analyzers
import xlalens.explainers

MODULES = sorted(
    info.name
    for package in (xlalens.analyzers, xlalens.explainers)
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {name}"


def test_doctests_exist() -> None:
    attempted = sum(doctest.testmod(importlib.import_module(name)).attempted for name in MODULES)
    assert attempted >= 25
