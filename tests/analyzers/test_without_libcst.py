"""The analyzer still checks every file when libcst is missing (a bundle without native wheels)."""

from __future__ import annotations

import sys

import pytest
from xlalens.analyzers import check_source

FSTRING_PRINT = """\
import jax


@jax.jit
def step(x):
    print(f"x = {x}")
    if x > 0:
        return x
    return -x
"""

NEWER_SYNTAX = "import jax\nif True: type Alias = int\n"  # only a newer grammar reads it


@pytest.fixture
def no_libcst(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(sys.modules):
        if name == "libcst" or name.startswith("libcst."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "libcst", None)  # makes `import libcst` raise ImportError


def test_findings_survive_and_only_the_libcst_fix_goes(no_libcst: None) -> None:
    diagnostics = check_source(FSTRING_PRINT, "step.py")
    assert [d.code for d in diagnostics] == ["JX106", "JX101"]
    assert diagnostics[0].fix is None


def test_unparsable_file_is_one_syntax_diagnostic(no_libcst: None) -> None:
    diagnostics = check_source(NEWER_SYNTAX, "alias.py")
    # Without libcst newer syntax cannot be confirmed, so it reads as a syntax error for this Python.
    assert [d.code for d in diagnostics] == ["E999"]
