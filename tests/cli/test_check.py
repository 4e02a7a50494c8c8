"""End-to-end tests of ``xlalens check``: the real command in a subprocess on temporary projects."""

from __future__ import annotations

import json
import re

import pytest


def test_clean_project_exits_zero(project, code):
    project.write("pkg/model.py", code.CLEAN)
    result = project.run("check")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "All checks passed!"


def test_finding_is_reported_concisely_with_1_based_column(project, code, require_rules):
    require_rules("JX101")
    project.write("pkg/model.py", code.JIT_IF)
    result = project.run("check")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert re.match(r"^pkg/model\.py:6:8: JX101 ", lines[0]), lines
    assert lines[-1] == "Found 1 error."


def test_default_path_is_cwd_and_explicit_paths_work(project, code, require_rules):
    require_rules("JX101")
    project.write("a/one.py", code.JIT_IF)
    project.write("b/two.py", code.JIT_IF)
    everything = project.run("check")
    only_b = project.run("check", "b")
    assert everything.stdout.count("JX101") == 2
    assert only_b.stdout.count("JX101") == 1 and "b/two.py" in only_b.stdout


def test_exit_zero_keeps_findings_but_exits_zero(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", code.JIT_IF)
    result = project.run("check", "--exit-zero")
    assert result.returncode == 0
    assert "JX101" in result.stdout


def test_missing_path_is_a_usage_error(project):
    result = project.run("check", "does_not_exist.py")
    assert result.returncode == 2
    assert "does_not_exist.py" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_subcommand_is_a_usage_error(project):
    result = project.run()
    assert result.returncode == 2
    assert "check" in result.stderr


def test_bad_flag_value_is_a_usage_error(project):
    result = project.run("check", "--jobs", "0")
    assert result.returncode == 2
    assert "positive integer" in result.stderr


# --- rule selection -------------------------------------------------------------------------


@pytest.fixture
def two_rules(project, code, require_rules):
    require_rules("JX101", "JX106")
    project.write("m.py", code.JIT_IF)
    project.write("p.py", code.JIT_PRINT)
    return project


def _codes(stdout: str) -> set[str]:
    return set(re.findall(r"^\S+:\d+:\d+: (\w+) ", stdout, re.M))


def test_select_replaces_the_selection(two_rules):
    assert _codes(two_rules.run("check", "--select", "JX106").stdout) == {"JX106"}


def test_select_is_comma_separated_and_repeatable(two_rules):
    assert _codes(two_rules.run("check", "--select", "JX101,JX106").stdout) == {"JX101", "JX106"}
    both = two_rules.run("check", "--select", "JX101", "--select", "jx106")
    assert _codes(both.stdout) == {"JX101", "JX106"}


def test_ignore_removes_and_longest_selector_wins(two_rules):
    assert _codes(two_rules.run("check", "--ignore", "JX101").stdout) == {"JX106"}
    # --ignore JX1 removes the family, the more specific --extend-select JX106 brings one back.
    kept = two_rules.run("check", "--ignore", "JX1", "--extend-select", "JX106")
    assert _codes(kept.stdout) == {"JX106"}


def test_extend_select_adds_to_a_configured_select(two_rules):
    two_rules.write("pyproject.toml", '[tool.xlalens]\nselect = ["JX101"]\n')
    assert _codes(two_rules.run("check").stdout) == {"JX101"}
    assert _codes(two_rules.run("check", "--extend-select", "JX106").stdout) == {"JX101", "JX106"}


def test_cli_select_overrides_configured_ignore(two_rules):
    two_rules.write("xlalens.toml", 'ignore = ["JX106"]\n')
    assert _codes(two_rules.run("check").stdout) == {"JX101"}
    # ruff's precedence: a --select on the command line replaces the configured selection whole.
    assert _codes(two_rules.run("check", "--select", "JX106").stdout) == {"JX106"}


def test_cli_extend_select_overrides_configured_ignore_of_same_code(two_rules):
    two_rules.write("xlalens.toml", 'ignore = ["JX106"]\n')
    result = two_rules.run("check", "--extend-select", "JX106")
    assert _codes(result.stdout) == {"JX101", "JX106"}


def test_cli_ignore_wins_over_configured_extend_select(two_rules):
    two_rules.write("xlalens.toml", 'select = ["JX101"]\nextend-select = ["JX106"]\n')
    assert _codes(two_rules.run("check").stdout) == {"JX101", "JX106"}
    assert _codes(two_rules.run("check", "--ignore", "JX1").stdout) == set()


def test_per_file_ignores_from_config(two_rules):
    two_rules.write("pyproject.toml", '[tool.xlalens.per-file-ignores]\n"p.py" = ["JX106"]\n')
    assert _codes(two_rules.run("check").stdout) == {"JX101"}


def test_unknown_selector_exits_2_listing_valid_selectors(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", code.JIT_IF)
    result = project.run("check", "--select", "JX999")
    assert result.returncode == 2
    assert "JX999" in result.stderr
    assert "JX101" in result.stderr  # the valid selectors are listed
    assert "Traceback" not in result.stderr


def test_unknown_selector_in_config_exits_2(project, code):
    project.write("m.py", code.CLEAN)
    project.write("xlalens.toml", 'select = ["NOPE1"]\n')
    result = project.run("check")
    assert result.returncode == 2
    assert "NOPE1" in result.stderr and "xlalens.toml" in result.stderr


# --- configuration --------------------------------------------------------------------------


def test_unknown_config_key_exits_2_naming_key_file_and_valid_keys(project, code):
    project.write("m.py", code.CLEAN)
    project.write("pyproject.toml", '[tool.xlalens]\nselekt = ["JX"]\n')
    result = project.run("check")
    assert result.returncode == 2
    assert "selekt" in result.stderr
    assert "pyproject.toml" in result.stderr
    for key in ("select", "extend-select", "per-file-ignores", "tpu-generation", "device-count"):
        assert key in result.stderr


def test_wrong_config_type_exits_2(project, code):
    project.write("m.py", code.CLEAN)
    project.write("xlalens.toml", 'device-count = "eight"\n')
    result = project.run("check")
    assert result.returncode == 2
    assert "device-count" in result.stderr and "positive integer" in result.stderr


def test_invalid_toml_exits_2(project, code):
    project.write("m.py", code.CLEAN)
    project.write("xlalens.toml", "select = [\n")
    result = project.run("check")
    assert result.returncode == 2 and "not valid TOML" in result.stderr


def test_explicit_config_file(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", code.JIT_IF)
    project.write("conf/strict.toml", 'ignore = ["JX101"]\n')
    assert project.run("check").returncode == 1
    result = project.run("check", "--config", "conf/strict.toml")
    assert result.returncode == 0, result.stdout
    assert project.run("check", "--config", "missing.toml").returncode == 2


def test_nested_config_applies_to_its_subtree(project, code, require_rules):
    require_rules("JX101")
    project.write("top.py", code.JIT_IF)
    project.write("sub/inner.py", code.JIT_IF)
    project.write("sub/pyproject.toml", '[tool.xlalens]\nignore = ["JX101"]\n')
    result = project.run("check")
    assert "top.py" in result.stdout and "inner.py" not in result.stdout


def test_show_settings(project):
    project.write("xlalens.toml", 'select = ["JX1"]\ndevice-count = 8\n')
    result = project.run("check", "--show-settings", "--extend-select", "JX6")
    assert result.returncode == 0, result.stderr
    assert '"device-count": 8' in result.stdout


# --- suppression ----------------------------------------------------------------------------


def test_noqa_with_code_suppresses_that_code_only(project, code, require_rules):
    require_rules("JX101")
    project.write("same.py", code.JIT_IF.replace("if x > 0:", "if x > 0:  # noqa: JX101"))
    project.write("other.py", code.JIT_IF.replace("if x > 0:", "if x > 0:  # noqa: JX106"))
    result = project.run("check")
    assert "same.py" not in result.stdout
    assert "other.py:6:8: JX101" in result.stdout


def test_bare_noqa_suppresses_everything_on_the_line(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", code.JIT_IF.replace("if x > 0:", "if x > 0:  # noqa"))
    assert project.run("check").returncode == 0


def test_file_level_noqa(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", "# xlalens: noqa\n" + code.JIT_IF)
    result = project.run("check")
    assert result.returncode == 0, result.stdout


# --- robustness -----------------------------------------------------------------------------


def test_syntax_error_gives_one_e999_and_the_run_goes_on(project, code, require_rules):
    require_rules("JX101")
    project.write("broken.py", "import jax\n\ndef f(:\n    pass\n")
    project.write("ok.py", code.JIT_IF)
    result = project.run("check")
    assert result.returncode == 1
    e999 = [line for line in result.stdout.splitlines() if " E999 " in line]
    assert len(e999) == 1 and e999[0].startswith("broken.py:3:")
    assert "ok.py:6:8: JX101" in result.stdout
    assert "Traceback" not in result.stderr


def test_undecodable_file_is_one_clear_error(project, code, require_rules):
    require_rules("JX101")
    project.write_bytes("bad.py", b"import jax\nx = '\xff\xfe'\n")
    project.write("ok.py", code.JIT_IF)
    result = project.run("check")
    assert result.returncode == 1
    assert re.search(r"^bad\.py:2:1: E902 cannot decode as utf-8", result.stdout, re.M)
    assert "ok.py:6:8: JX101" in result.stdout
    assert "Traceback" not in result.stderr


def test_parallel_and_serial_runs_agree(project, code, require_rules):
    require_rules("JX101", "JX106")
    for i in range(12):
        project.write(f"pkg/m{i:02}.py", code.JIT_IF if i % 2 else code.JIT_PRINT)
    serial = project.run("check", "--no-cache", "--jobs", "1")
    parallel = project.run("check", "--no-cache", "--jobs", "3")
    assert serial.returncode == parallel.returncode == 1
    assert serial.stdout == parallel.stdout
    assert serial.stdout.count("\n") == 13


# --- statistics -----------------------------------------------------------------------------


def test_statistics_counts_per_code_sorted(project, code, require_rules):
    require_rules("JX101", "JX106")
    project.write("a.py", code.JIT_IF)
    project.write("b.py", code.JIT_IF)
    project.write("c.py", code.JIT_PRINT)
    result = project.run("check", "--statistics")
    assert result.returncode == 1
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert rows == [
        ["2", "JX101", "[ ] traced-value-in-python-control-flow"],
        ["1", "JX106", "[*] print-of-traced-value"],
    ]
    as_json = project.run("check", "--statistics", "--output-format", "json")
    assert '"count": 2' in as_json.stdout and '"fixable": true' in as_json.stdout


# --- stdin ----------------------------------------------------------------------------------


def test_stdin_with_filename(project, code, require_rules):
    require_rules("JX101")
    result = project.run("check", "--stdin-filename", "pkg/m.py", "-", stdin=code.JIT_IF.encode())
    assert result.returncode == 1
    assert "pkg/m.py:6:8: JX101" in result.stdout


def test_stdin_fix_prints_the_fixed_source(project, code, require_rules):
    require_rules("JX106")
    result = project.run("check", "--fix", "-", stdin=code.JIT_PRINT.encode())
    assert result.returncode == 0, result.stderr
    assert "jax.debug.print(" in result.stdout
    assert "Found 1 error (1 fixed, 0 remaining)." in result.stderr


# --- version --------------------------------------------------------------------------------


def test_version(project):
    result = project.run("--version")
    assert result.returncode == 0
    assert re.match(r"^xlalens \d", result.stdout)


def test_a_file_left_unanalyzed_fails_the_run_unless_its_code_is_ignored(project):
    project.write("huge.py", "import jax\n" + "x = 1\n" * 400_000)
    failed = project.run("check")
    assert failed.returncode == 1 and "E903" in failed.stdout
    assert project.run("check", "--ignore", "E903").returncode == 0
    # A configured ignore survives command-line flags that are layered on top of it.
    project.write("pyproject.toml", '[tool.xlalens]\nignore = ["E9"]\n')
    layered = project.run("check", "--extend-select", "JX101", "--ignore", "JX2")
    assert layered.returncode == 0 and "E903" not in layered.stdout, layered.stdout


def test_syntax_errors_can_be_ignored_per_file(project):
    project.write("broken.py", "import jax\ndef f(:\n")
    assert "E999" in project.run("check").stdout
    project.write("pyproject.toml", '[tool.xlalens.per-file-ignores]\n"broken.py" = ["E999"]\n')
    result = project.run("check")
    assert result.returncode == 0 and result.stdout.strip() == "All checks passed!"


def test_short_flags_and_output_file_follow_ruff(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", code.JIT_IF)
    result = project.run("check", "-n", "-e", "-o", "report.json", "--output-format", "json")
    assert result.returncode == 0 and result.stdout == ""
    report = json.loads((project.root / "report.json").read_text(encoding="utf-8"))
    assert [item["code"] for item in report] == ["JX101"]
    unwritable = project.run("check", "-o", str(project.root / "missing" / "r.txt"))
    assert unwritable.returncode == 2 and "cannot write" in unwritable.stderr


def test_output_format_and_unsafe_fixes_come_from_the_configuration(project, code, require_rules):
    require_rules("JX101")
    project.write("m.py", code.JIT_IF)
    project.write("pyproject.toml", '[tool.xlalens]\noutput-format = "json-lines"\nunsafe-fixes = true\n')
    lines = project.run("check").stdout.splitlines()
    assert json.loads(lines[0])["code"] == "JX101"
    assert project.run("check", "--output-format", "concise").stdout.startswith("m.py:6:8: JX101 ")
    settings = json.loads(project.run("check", "--show-settings").stdout)
    assert settings["settings-file"] == str(project.root / "pyproject.toml")
    assert settings["output-format"] == "json-lines" and settings["unsafe-fixes"] is True


def test_an_unknown_flag_shows_the_subcommands_usage(project):
    result = project.run("check", "--no-such-flag", ".")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: xlalens check ")
    assert "unrecognized arguments: --no-such-flag" in result.stderr
