"""The pre-commit hook definition users point at in three lines."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

HOOKS = Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml"


def test_hook_definition(project, code):
    hooks = {hook["id"]: hook for hook in yaml.safe_load(HOOKS.read_text())}
    hook = hooks["xlalens"]
    assert hook["language"] == "python"
    assert hook["types"] == ["file"]
    checked = re.compile(hook["files"])
    for name in ("m.py", "pkg/m.pyi", "requirements.txt", "ci/requirements-tpu.txt", "pyproject.toml", "setup.cfg"):
        assert checked.search(name), name
    for name in ("README.md", "notes.txt", "mypyproject.toml"):
        assert not checked.search(name), name
    assert hook["require_serial"] is False
    entry = shlex.split(hook["entry"])
    assert entry[:2] == ["xlalens", "check"]
    # pre-commit appends the staged file names; the entry must accept them (and apply excludes).
    project.write("xlalens.toml", 'extend-exclude = ["gen"]\n')
    project.write("ok.py", code.CLEAN)
    project.write("gen/skip.py", code.JIT_IF)
    result = project.run(*entry[1:], "ok.py", "gen/skip.py")
    assert result.returncode == 0, result.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_real_pre_commit_runs_the_hook_on_python_and_requirements_files(tmp_path, code):
    pytest.importorskip("pre_commit")
    repo = tmp_path / "user-project"
    repo.mkdir()
    (repo / "train.py").write_text(code.JIT_IF, encoding="utf-8")
    (repo / "requirements.txt").write_text("torch==2.8.0\ntorch_xla==2.9.0\n", encoding="utf-8")
    (repo / "README.md").write_text("import jax\n", encoding="utf-8")
    identity = {
        f"GIT_{who}_{what}": value
        for who in ("AUTHOR", "COMMITTER")
        for what, value in (("NAME", "ci"), ("EMAIL", "ci@example.org"))
    }
    env = {**os.environ, **identity, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_CONFIG_NOSYSTEM": "1"}
    for command in (["init", "-q"], ["add", "."]):
        subprocess.run(["git", *command], cwd=repo, check=True, env=env)
    # try-repo installs the hook from this checkout (its uncommitted changes included) into its own venv.
    result = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(HOOKS.parent), "xlalens", "--all-files"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "train.py:6:8: JX101" in result.stdout and "requirements.txt:2:1: TX901" in result.stdout
    assert "README.md" not in result.stdout
