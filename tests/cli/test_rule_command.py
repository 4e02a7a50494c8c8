"""``xlalens rule CODE`` and ``xlalens rule --all``."""

from __future__ import annotations

import json

from xlalens.analyzers.engine import registry


def test_rule_prints_header_and_docs(project, require_rules):
    require_rules("JX101")
    result = project.run("rule", "JX101")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "# traced-value-in-python-control-flow (JX101)"
    assert "Status: stable. Fix is not available." in result.stdout
    assert "Explainer: <http://127.0.0.1:8711/tracing#python-control-flow>" in result.stdout
    assert "Rule page: <http://127.0.0.1:8711/rules/JX101>" in result.stdout
    assert result.stdout.endswith(registry.get_rule("JX101").docs() + "\n")


def test_rule_code_is_case_insensitive_and_respects_configured_base_url(project, require_rules):
    require_rules("JX101")
    project.write("xlalens.toml", 'explainer-base-url = "http://127.0.0.1:8000/explain"\n')
    result = project.run("rule", "jx101")
    assert "Explainer: <http://127.0.0.1:8000/explain/tracing#python-control-flow>" in result.stdout
    assert "Rule page: <http://127.0.0.1:8000/explain/rules/JX101>" in result.stdout


def test_rule_shows_fix_title_when_the_rule_has_one(project, require_rules):
    require_rules("JX106")
    result = project.run("rule", "JX106")
    assert "Fix is sometimes available." in result.stdout
    assert f"Fix: {registry.get_rule('JX106').fix_title}" in result.stdout


def test_rule_all_prints_every_rule(project):
    result = project.run("rule", "--all")
    assert result.returncode == 0
    for rule in registry.all_rules():
        assert f"# {rule.name()} ({rule.code})" in result.stdout


def test_rule_json(project, require_rules):
    require_rules("JX101")
    one = json.loads(project.run("rule", "JX101", "--output-format", "json").stdout)
    assert one["code"] == "JX101"
    assert one["name"] == "traced-value-in-python-control-flow"
    assert one["status"] == "stable" and one["preview"] is False
    assert one["explanation"] == registry.get_rule("JX101").docs()
    assert one["summary"] and one["explainer"].startswith("http://127.0.0.1:8711/")
    assert one["page"] == f"http://127.0.0.1:8711/rules/{one['code']}"
    every = json.loads(project.run("rule", "--all", "--output-format", "json").stdout)
    assert [item["code"] for item in every] == [rule.code for rule in registry.all_rules()]


def test_unknown_rule_exits_2_listing_the_codes(project, require_rules):
    require_rules("JX101")
    result = project.run("rule", "JX999")
    assert result.returncode == 2
    assert "JX999" in result.stderr and "JX101" in result.stderr


def test_rule_needs_a_code_or_all(project):
    assert project.run("rule").returncode == 2
    assert project.run("rule", "JX101", "--all").returncode == 2


def test_codes_that_are_not_rules_are_documented(project):
    from xlalens.analyzers.core.codes import NON_RULE_CODES

    for code, entry in NON_RULE_CODES.items():
        result = project.run("rule", code.lower())
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith(f"# {entry.name} ({code})") and entry.description in result.stdout
    described = json.loads(project.run("rule", "E998", "--output-format", "json").stdout)
    assert described["rule"] is False and described["file_level"] is True
    unknown = project.run("rule", "E997")
    assert unknown.returncode == 2 and "E999" in unknown.stderr
