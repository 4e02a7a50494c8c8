"""Discovery and reading survive what a hostile or broken tree holds: loops, special files, odd ignores."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from xlalens.analyzers.cli.main import main
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.project import runner
from xlalens.analyzers.project.config import SettingsResolver
from xlalens.analyzers.project.discovery import discover

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file types")


def _found(root: Path, *paths: str) -> list[str]:
    return [str(p.relative_to(root)) for p in discover(paths or [str(root)], SettingsResolver(root))]


@posix_only
def test_a_symlink_loop_is_skipped(tmp_path):
    (tmp_path / "a.py").symlink_to("b.py")
    (tmp_path / "b.py").symlink_to("a.py")
    (tmp_path / "m.py").write_text("import jax\n")
    assert _found(tmp_path) == ["m.py"]


def test_a_gitignore_line_git_accepts_but_pathspec_refuses(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("!\ngenerated_*.py\n")
    (tmp_path / "generated_a.py").write_text("import jax\n")
    (tmp_path / "m.py").write_text("import jax\n")
    assert _found(tmp_path) == ["m.py"]


@posix_only
@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads every directory")
def test_an_unreadable_directory_is_skipped(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "m.py").write_text("import jax\n")
    (tmp_path / "m.py").write_text("import jax\n")
    locked.chmod(0)
    try:
        assert _found(tmp_path) == ["m.py"]
    finally:
        locked.chmod(0o755)


@posix_only
def test_a_path_longer_than_the_system_allows(tmp_path, capsys):
    deep = tmp_path
    # Relative steps: each mkdir stays under PATH_MAX, the whole path does not.
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        for _ in range(25):
            os.mkdir("d" * 200)
            os.chdir("d" * 200)
        Path("m.py").write_text("import jax\n")
    finally:
        os.chdir(cwd)
    (tmp_path / "ok.py").write_text("import jax\n")
    assert main(["check", "--no-cache", "-j1", "--show-files", str(deep)]) == 0
    assert capsys.readouterr().out.strip().endswith("ok.py")


@posix_only
def test_a_fifo_named_on_the_command_line_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    [refused] = runner.check_paths([str(fifo)], Settings(), jobs=1).diagnostics
    assert refused.code == "E902" and "a FIFO, not a regular file" in refused.message


@posix_only
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_behind_a_python_name(tmp_path):
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    (tmp_path / "m.py").write_text("import jax\n")
    assert _found(tmp_path) == ["m.py"]
    [refused] = runner.check_paths([str(tmp_path / "zero.py")], Settings(), jobs=1).diagnostics
    assert refused.code == "E902" and "character device" in refused.message


def test_a_file_over_the_read_limit_is_refused(tmp_path, monkeypatch):
    from xlalens.analyzers.inputs import fileio

    monkeypatch.setattr(fileio, "MAX_READ_BYTES", 10)
    file = tmp_path / "m.py"
    file.write_text("import jax\n" * 3)
    [refused] = runner.check_paths([str(file)], Settings(), jobs=1).diagnostics
    assert refused.code == "E902" and "over the limit of 10 bytes" in refused.message


def test_a_sub_project_with_a_non_utf8_pyproject_is_a_configuration_error(tmp_path, capsys):
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "pyproject.toml").write_bytes(b'[tool.xlalens]\nselect = ["\xff"]\n')
    (sub / "m.py").write_text("import jax\n")
    assert main(["check", "--no-cache", "-j1", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is not UTF-8" in err and "Traceback" not in err


@posix_only
def test_a_looping_pyproject_in_a_sub_project_is_not_a_configuration(tmp_path):
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "pyproject.toml").symlink_to("pyproject.toml")
    (sub / "m.py").write_text("import jax\n")
    assert main(["check", "--no-cache", "-j1", str(tmp_path)]) == 0
