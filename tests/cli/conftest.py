"""Helpers for the CLI tests: temporary projects and running the real ``xlalens`` command."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path
from types import SimpleNamespace

import pytest
from xlalens.analyzers.engine import registry

JIT_IF = """\
import jax


@jax.jit
def f(x):
    if x > 0:
        return x
    return -x
"""
"""JX101 on line 6 (``if x > 0``, columns 8-13 0-based)."""

JIT_PRINT = """\
import jax


@jax.jit
def f(x):
    print(x)
    return x
"""
"""JX106 on line 6, with a safe fix to ``jax.debug.print``."""

AT_SET = """\
import jax.numpy as jnp


def g():
    x = jnp.zeros(3)
    x[0] = 1.0
    return x
"""
"""JX601 on line 6, with a safe fix to ``x = x.at[0].set(1.0)``."""

CLEAN = """\
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return jnp.where(x > 0, x, -x)
"""


def _require_rules(*codes: str) -> None:
    known = {rule.code for rule in registry.all_rules()}
    missing = [code for code in codes if code not in known]
    if missing:
        pytest.skip(f"needs rule(s) {', '.join(missing)}, not in the registry yet")


@pytest.fixture
def require_rules() -> Callable[..., None]:
    """``require_rules("JX601")`` skips the test unless the engine has those rules yet."""
    return _require_rules


@pytest.fixture
def code() -> SimpleNamespace:
    """Snippets that trigger known rules: ``JIT_IF``, ``JIT_PRINT``, ``AT_SET``, ``CLEAN``."""
    return SimpleNamespace(JIT_IF=JIT_IF, JIT_PRINT=JIT_PRINT, AT_SET=AT_SET, CLEAN=CLEAN)


class Project:
    """A temporary project directory with helpers to write files and run xlalens in it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def write(self, relative: str, text: str = "", *, dedent: bool = True) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if dedent else text, encoding="utf-8", newline="")
        return path

    def write_bytes(self, relative: str, data: bytes) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return path

    def run(
        self,
        *args: str,
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """Run ``python -m xlalens.analyzers.cli.main ARGS`` in the project (or ``cwd``)."""
        environment = {k: v for k, v in os.environ.items() if not k.startswith("XLALENS_")}
        environment["PYTHONIOENCODING"] = "utf-8"
        environment.update(env or {})
        completed = subprocess.run(
            [sys.executable, "-m", "xlalens.analyzers.cli.main", *args],
            cwd=cwd or self.root,
            input=stdin,
            capture_output=True,
            env=environment,
            timeout=120,
            check=False,
        )
        return subprocess.CompletedProcess(
            completed.args,
            completed.returncode,
            completed.stdout.decode("utf-8", errors="replace"),
            completed.stderr.decode("utf-8", errors="replace"),
        )


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """An empty project directory."""
    root = tmp_path / "project"
    root.mkdir()
    return Project(root)
