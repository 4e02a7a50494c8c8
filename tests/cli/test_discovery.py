"""Which files ``xlalens check`` looks at: walking, default excludes, patterns and .gitignore."""

from __future__ import annotations

from pathlib import Path

import pytest
from xlalens.analyzers.project.config import Overrides, SettingsResolver
from xlalens.analyzers.project.discovery import DiscoveryError, discover


def _files(project, *args: str) -> list[str]:
    result = project.run("check", "--show-files", *args)
    assert result.returncode == 0, result.stderr
    return [Path(line).relative_to(project.root).as_posix() for line in result.stdout.splitlines()]


@pytest.fixture
def tree(project):
    for relative in (
        "pkg/__init__.py",
        "pkg/model.py",
        "pkg/stubs.pyi",
        "pkg/notes.txt",
        "pkg/data/generated.py",
        "build/lib/model.py",
        ".venv/lib/site.py",
        "node_modules/x.py",
        "pkg/__pycache__/model.cpython-311.py",
        ".git/hooks/pre-commit.py",
        "z_last.py",
    ):
        project.write(relative, "import jax\n")
    return project


def test_walk_keeps_python_files_in_sorted_order_and_skips_default_excludes(tree):
    assert _files(tree) == [
        "pkg/__init__.py",
        "pkg/data/generated.py",
        "pkg/model.py",
        "pkg/stubs.pyi",
        "z_last.py",
    ]


def test_exclude_and_extend_exclude_from_config(tree):
    tree.write("pyproject.toml", '[tool.xlalens]\nextend-exclude = ["pkg/data"]\n')
    assert "pkg/data/generated.py" not in _files(tree)
    assert "pkg/model.py" in _files(tree)
    # `exclude` replaces the defaults: build/ is walked again.
    tree.write("pyproject.toml", '[tool.xlalens]\nexclude = ["*.pyi", ".venv", ".git"]\n')
    files = _files(tree)
    assert "build/lib/model.py" in files and "pkg/stubs.pyi" not in files


def test_extend_exclude_on_the_command_line(tree):
    assert _files(tree, "--extend-exclude", "z_*.py,pkg/data") == [
        "pkg/__init__.py",
        "pkg/model.py",
        "pkg/stubs.pyi",
    ]


def test_gitignore_files_are_honoured_with_negation_and_nesting(tree):
    tree.write(".gitignore", "pkg/data/\n*.pyi\n")
    tree.write("pkg/.gitignore", "model.py\n!stubs.pyi\n")
    assert _files(tree) == ["pkg/__init__.py", "pkg/stubs.pyi", "z_last.py"]
    assert "pkg/data/generated.py" in _files(tree, "--no-respect-gitignore")


def test_gitignore_above_the_walked_directory_counts_inside_a_git_repo(tree):
    (tree.root / ".git").mkdir(exist_ok=True)
    tree.write(".gitignore", "generated.py\n")
    result = tree.run("check", "--show-files", "pkg/data")
    assert result.returncode == 0 and result.stdout == ""


def test_explicit_files_are_checked_even_when_excluded(tree):
    assert _files(tree, "build/lib/model.py") == ["build/lib/model.py"]
    tree.write(".gitignore", "z_last.py\n")
    assert _files(tree, "z_last.py") == ["z_last.py"]


def test_force_exclude_applies_patterns_to_explicit_files(tree):
    assert _files(tree, "--force-exclude", "build/lib/model.py", "z_last.py") == ["z_last.py"]
    tree.write("xlalens.toml", 'extend-exclude = ["z_*.py"]\n')
    assert _files(tree, "--force-exclude", "z_last.py") == []


def test_paths_are_deduplicated(tree):
    assert _files(tree, "pkg/model.py", "pkg", "./pkg/model.py").count("pkg/model.py") == 1


def test_force_exclude_with_stdin_filename_checks_nothing(project, code, require_rules):
    require_rules("JX106")
    project.write("xlalens.toml", 'extend-exclude = ["gen"]\n')
    data = code.JIT_PRINT.encode()
    result = project.run("check", "--force-exclude", "--fix", "--stdin-filename", "gen/m.py", "-", stdin=data)
    assert result.returncode == 0
    assert result.stdout == code.JIT_PRINT  # an editor piping through xlalens gets its text back


def test_excluded_files_are_not_checked(project, code, require_rules):
    require_rules("JX101")
    project.write("ok.py", code.CLEAN)
    project.write("build/bad.py", code.JIT_IF)
    assert project.run("check").returncode == 0


# --- the discover() function ----------------------------------------------------------------


def test_discover_raises_for_a_missing_path(tmp_path):
    with pytest.raises(DiscoveryError, match=r"nope\.py"):
        discover(["nope.py"], SettingsResolver(tmp_path))


def test_discover_returns_absolute_sorted_paths(tmp_path):
    for name in ("b.py", "a.py", "sub/c.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    found = discover(["."], SettingsResolver(tmp_path))
    assert found == [tmp_path / "a.py", tmp_path / "b.py", tmp_path / "sub" / "c.py"]


def test_discover_does_not_follow_symlinked_directories(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "m.py").write_text("")
    (tmp_path / "loop").symlink_to(tmp_path, target_is_directory=True)
    assert discover(["."], SettingsResolver(tmp_path)) == [tmp_path / "real" / "m.py"]


def test_exclude_override_from_command_line(tmp_path):
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "m.py").write_text("")
    resolver = SettingsResolver(tmp_path, overrides=Overrides(exclude=()))
    assert discover(["."], resolver) == [tmp_path / "build" / "m.py"]
