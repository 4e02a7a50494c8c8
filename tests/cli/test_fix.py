"""``xlalens check --fix`` / ``--diff`` / ``--unsafe-fixes`` end to end."""

from __future__ import annotations

import pytest

NUMPY_ON_TRACER = """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x):
    return np.sin(x)
"""
"""JX103, whose fix (``np.sin`` -> ``jnp.sin``) is unsafe."""


def _no_temp_files(project) -> bool:
    return not [p for p in project.root.rglob("*") if p.name.endswith(".xlalens-tmp")]


def test_fix_rewrites_the_file_and_reports_what_remains(project, code, require_rules):
    require_rules("JX101", "JX106")
    path = project.write("m.py", code.JIT_PRINT + "\n\n" + code.JIT_IF.replace("def f", "def h"))
    result = project.run("check", "--fix")
    assert result.returncode == 1  # the JX101 has no fix and remains
    text = path.read_text()
    assert "jax.debug.print(" in text and "    print(x)" not in text
    assert "JX106" not in result.stdout
    assert "JX101" in result.stdout
    assert result.stdout.splitlines()[-1] == "Found 2 errors (1 fixed, 1 remaining)."
    assert _no_temp_files(project)


def test_fix_exits_zero_when_everything_was_fixed(project, code, require_rules):
    require_rules("JX601")
    path = project.write("m.py", code.AT_SET)
    result = project.run("check", "--fix")
    assert result.returncode == 0, result.stdout
    assert "    x = x.at[0].set(1.0)\n" in path.read_text()
    assert result.stdout.splitlines()[-1] == "Found 1 error (1 fixed, 0 remaining)."


def test_fix_twice_changes_nothing_the_second_time(project, code, require_rules):
    require_rules("JX106", "JX601")
    path = project.write("m.py", code.JIT_PRINT + "\n\n" + code.AT_SET)
    project.run("check", "--fix")
    once = path.read_bytes()
    second = project.run("check", "--fix")
    assert path.read_bytes() == once
    assert second.returncode == 0 and second.stdout.strip() == "All checks passed!"


def test_fix_keeps_crlf_line_endings(project, code, require_rules):
    require_rules("JX106")
    path = project.write_bytes("m.py", code.JIT_PRINT.replace("\n", "\r\n").encode())
    project.run("check", "--fix")
    data = path.read_bytes()
    assert b"jax.debug.print(" in data
    assert data.count(b"\r\n") == code.JIT_PRINT.count("\n")
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_fix_keeps_a_latin_1_coding_cookie_and_its_bytes(project, code, require_rules):
    require_rules("JX601")
    text = "# -*- coding: latin-1 -*-\n# caf\xe9 cr\xe8me\n" + code.AT_SET
    path = project.write_bytes("m.py", text.encode("latin-1"))
    result = project.run("check", "--fix")
    assert result.returncode == 0, result.stdout
    data = path.read_bytes()
    assert b"caf\xe9 cr\xe8me" in data  # still latin-1, not re-encoded as UTF-8
    assert data.decode("latin-1") == text.replace("x[0] = 1.0", "x = x.at[0].set(1.0)")


def test_fix_keeps_a_utf8_bom(project, code, require_rules):
    require_rules("JX601")
    path = project.write_bytes("m.py", b"\xef\xbb\xbf" + code.AT_SET.encode())
    project.run("check", "--fix")
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"x.at[0].set(1.0)" in data
    assert not data.startswith(b"\xef\xbb\xbf\xef\xbb\xbf")


def test_fix_keeps_file_permissions(project, code, require_rules):
    require_rules("JX601")
    path = project.write("m.py", code.AT_SET)
    path.chmod(0o640)
    project.run("check", "--fix")
    assert path.stat().st_mode & 0o777 == 0o640


def test_diff_prints_changes_and_writes_nothing(project, code, require_rules):
    require_rules("JX601")
    path = project.write("m.py", code.AT_SET)
    before = path.read_bytes()
    result = project.run("check", "--diff")
    assert result.returncode == 1
    assert path.read_bytes() == before
    assert "--- m.py\n+++ m.py\n" in result.stdout
    assert "-    x[0] = 1.0\n+    x = x.at[0].set(1.0)\n" in result.stdout
    assert "Would fix 1 error." in result.stderr
    assert _no_temp_files(project)


def test_diff_wins_over_fix_and_exits_zero_when_nothing_changes(project, code, require_rules):
    require_rules("JX601")
    path = project.write("m.py", code.AT_SET)
    before = path.read_bytes()
    assert project.run("check", "--fix", "--diff").returncode == 1
    assert path.read_bytes() == before
    project.write("m.py", code.CLEAN)
    clean = project.run("check", "--diff")
    assert clean.returncode == 0 and clean.stdout == ""


def test_unsafe_fixes_need_the_flag(project, require_rules):
    require_rules("JX103")
    path = project.write("m.py", NUMPY_ON_TRACER)
    safe_only = project.run("check", "--fix")
    assert "np.sin(x)" in path.read_text()
    assert safe_only.returncode == 1
    assert "1 hidden fix can be enabled with the --unsafe-fixes option" in safe_only.stdout
    assert "[*]" not in safe_only.stdout
    marked = project.run("check", "--unsafe-fixes")
    assert "JX103 [*]" in marked.stdout
    unsafe = project.run("check", "--fix", "--unsafe-fixes")
    assert unsafe.returncode == 0, unsafe.stdout
    assert "jnp.sin(x)" in path.read_text()


def test_unfixable_and_fixable_keys_keep_fixes_from_being_applied(project, code, require_rules):
    require_rules("JX101", "JX106")
    path = project.write("m.py", code.JIT_PRINT)
    project.write("pyproject.toml", '[tool.xlalens]\nunfixable = ["JX1"]\n')
    kept = project.run("check", "--fix")
    assert kept.returncode == 1 and "print(" in path.read_text() and "jax.debug.print(" not in path.read_text()
    assert "[*]" not in kept.stdout and "fixable with --fix" not in kept.stdout
    project.write("pyproject.toml", '[tool.xlalens]\nfixable = ["JX2"]\n')
    assert "jax.debug.print(" not in (project.run("check", "--fix"), path.read_text())[1]
    project.write("pyproject.toml", '[tool.xlalens]\nfixable = ["JX1"]\nunfixable = ["JX2"]\n')
    fixed = project.run("check", "--fix")
    assert fixed.returncode == 0, fixed.stdout
    assert "jax.debug.print(" in path.read_text()
    project.write("pyproject.toml", '[tool.xlalens]\nunfixable = ["JX999"]\n')
    bad = project.run("check")
    assert bad.returncode == 2 and "unfixable" in bad.stderr and "JX999" in bad.stderr


@pytest.mark.parametrize("flag", ["--fix", "--diff"])
def test_fix_and_diff_with_a_syntax_error_file_leave_it_alone(project, code, flag, require_rules):
    require_rules("JX601")
    broken = project.write("broken.py", "import jax\ndef f(:\n")
    project.write("ok.py", code.AT_SET)
    project.run("check", flag)
    assert broken.read_text() == "import jax\ndef f(:\n"


def test_fix_only_reports_the_count_and_ignores_what_remains(project, code, require_rules):
    require_rules("JX101", "JX106")
    path = project.write("m.py", code.JIT_PRINT + "\n\n" + code.JIT_IF.replace("def f", "def h"))
    result = project.run("check", "--fix-only")
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip() == "Fixed 1 error."
    assert "jax.debug.print(" in path.read_text()
    assert project.run("check", "--fix-only").stdout.strip() == "No errors fixed."


def test_exit_non_zero_on_fix_fails_a_run_that_changed_files(project, code, require_rules):
    require_rules("JX601")
    path = project.write("m.py", code.AT_SET)
    assert project.run("check", "--fix", "--exit-non-zero-on-fix").returncode == 1
    assert "x.at[0].set(1.0)" in path.read_text()
    assert project.run("check", "--fix", "--exit-non-zero-on-fix").returncode == 0


def test_add_noqa_silences_every_finding_and_merges_with_existing_comments(project, code, require_rules):
    require_rules("JX101", "JX106")
    source = (
        code.JIT_PRINT
        + "\n\n"
        + code.JIT_IF.replace("def f", "def h").replace("    if x > 0:\n", "    if x > 0:  # noqa: JX999\n")
    )
    path = project.write("m.py", source.replace("\n", "\r\n"))
    result = project.run("check", "--add-noqa")
    assert result.returncode == 0 and result.stderr.strip().endswith("Added 2 noqa directives.")
    text = path.read_bytes().decode()
    assert "    if x > 0:  # noqa: JX999, JX101\r\n" in text and "\n" not in text.replace("\r\n", "")
    assert "# noqa: JX106" in text
    assert project.run("check").stdout.strip() == "All checks passed!"
    assert project.run("check", "--add-noqa").stderr.strip().endswith("Added 0 noqa directives.")
