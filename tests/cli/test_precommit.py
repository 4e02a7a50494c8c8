"""The pre-commit hook definition users point at in three lines."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

HOOKS = Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml"


def test_hook_definition(project, code):
    hooks = {hook["id"]: hook for hook in yaml.safe_load(HOOKS.read_text())}
    hook = hooks["xlalens"]
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "pyi"]
    assert hook["require_serial"] is False
    entry = shlex.split(hook["entry"])
    assert entry[:2] == ["xlalens", "check"]
    # pre-commit appends the staged file names; the entry must accept them (and apply excludes).
    project.write("xlalens.toml", 'extend-exclude = ["gen"]\n')
    project.write("ok.py", code.CLEAN)
    project.write("gen/skip.py", code.JIT_IF)
    result = project.run(*entry[1:], "ok.py", "gen/skip.py")
    assert result.returncode == 0, result.stdout
