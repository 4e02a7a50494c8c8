"""Test-suite options shared by every test folder."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="rewrite golden .fixed.py files")


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/browser is in the ``browser`` tier."""
    for item in items:
        if item.path.parent.name == "browser":
            item.add_marker(pytest.mark.browser)
