"""Output formats: end to end through ``--output-format``, and the renderers on crafted reports."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from xlalens.analyzers.core.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    Fix,
    Position,
    Range,
    Severity,
)
from xlalens.analyzers.output import Report, format_names, get_format, register_format
from xlalens.analyzers.output import statistics as statistics_output
from xlalens.analyzers.output.sarif import sarif_log

# No copy of the official SARIF 2.1.0 schema could be obtained offline (no installed package ships
# it), so this is a compact structural check of what the spec requires and of every property we
# emit; objects forbid unknown properties, as most objects in the official schema do.
_TEXT = {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}}
_MULTIFORMAT = {
    "type": "object",
    "required": ["text"],
    "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}},
    "additionalProperties": False,
}
_POSITIVE = {"type": "integer", "minimum": 1}
SARIF_SCHEMA = {
    "type": "object",
    "required": ["version", "runs"],
    "additionalProperties": False,
    "properties": {
        "$schema": {"type": "string", "format": "uri"},
        "version": {"const": "2.1.0"},
        "runs": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["tool"],
                "additionalProperties": False,
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "additionalProperties": False,
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name"],
                                "additionalProperties": False,
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "informationUri": {"type": "string"},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id"],
                                            "additionalProperties": False,
                                            "properties": {
                                                "id": {"type": "string"},
                                                "name": {"type": "string"},
                                                "shortDescription": _MULTIFORMAT,
                                                "fullDescription": _MULTIFORMAT,
                                                "helpUri": {"type": "string"},
                                                "defaultConfiguration": {
                                                    "type": "object",
                                                    "properties": {
                                                        "level": {
                                                            "enum": [
                                                                "none",
                                                                "note",
                                                                "warning",
                                                                "error",
                                                            ]
                                                        }
                                                    },
                                                },
                                                "properties": {"type": "object"},
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "originalUriBaseIds": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "object",
                            "properties": {"uri": {"type": "string", "pattern": "/$"}},
                        },
                    },
                    "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["message"],
                            "additionalProperties": False,
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": 0},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": _TEXT,
                                "locations": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "additionalProperties": False,
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "required": ["artifactLocation"],
                                                "additionalProperties": False,
                                                "properties": {
                                                    "artifactLocation": {
                                                        "type": "object",
                                                        "required": ["uri"],
                                                        "additionalProperties": False,
                                                        "properties": {
                                                            "uri": {"type": "string"},
                                                            "uriBaseId": {"type": "string"},
                                                        },
                                                    },
                                                    "region": {
                                                        "type": "object",
                                                        "required": ["startLine"],
                                                        "additionalProperties": False,
                                                        "properties": {
                                                            "startLine": _POSITIVE,
                                                            "startColumn": _POSITIVE,
                                                            "endLine": _POSITIVE,
                                                            "endColumn": _POSITIVE,
                                                        },
                                                    },
                                                },
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def _range(line: int, start: int, end: int) -> Range:
    return Range(Position(line, start), Position(line, end))


def _render(name: str, report: Report) -> str:
    out = io.StringIO()
    get_format(name)(report, out)
    return out.getvalue()


# --- end to end -----------------------------------------------------------------------------


@pytest.fixture
def findings(project, code, require_rules):
    require_rules("JX101", "JX106")
    project.write("pkg/a.py", code.JIT_IF)
    project.write("pkg/b.py", code.JIT_PRINT)
    return project


def test_json_uses_ruff_field_names_and_1_based_columns(findings):
    result = findings.run("check", "--output-format", "json")
    assert result.returncode == 1
    items = json.loads(result.stdout)
    assert [item["code"] for item in items] == ["JX101", "JX106"]
    first = items[0]
    for key in (
        "code",
        "message",
        "filename",
        "location",
        "end_location",
        "fix",
        "url",
        "noqa_row",
    ):
        assert key in first
    assert first["filename"] == str(findings.root / "pkg" / "a.py")
    assert first["location"] == {"row": 6, "column": 8}
    assert first["end_location"] == {"row": 6, "column": 13}
    assert first["fix"] is None and first["noqa_row"] == 6
    assert first["url"] == "http://127.0.0.1:8711/tracing#python-control-flow"
    fix = items[1]["fix"]
    assert fix["applicability"] == "safe" and fix["message"]
    assert fix["edits"][0]["location"] == {"row": 6, "column": 5}
    assert "jax.debug.print" in fix["edits"][0]["content"]


def test_json_lines_has_one_object_per_line(findings):
    result = findings.run("check", "--output-format", "json-lines")
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert [json.loads(line)["code"] for line in lines] == ["JX101", "JX106"]
    assert json.loads(lines[0]) == json.loads(findings.run("check", "--output-format", "json").stdout)[0]


def test_sarif_is_structurally_valid_sarif_2_1_0(findings):
    result = findings.run("check", "--output-format", "sarif")
    assert result.returncode == 1
    log = json.loads(result.stdout)
    jsonschema.validate(log, SARIF_SCHEMA)
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "xlalens" and re.match(r"\d", driver["version"])
    rules = driver["rules"]
    jx101 = next(rule for rule in rules if rule["id"] == "JX101")
    assert jx101["name"] == "traced-value-in-python-control-flow"
    assert "## Why is this bad?" in jx101["fullDescription"]["text"]
    assert jx101["helpUri"].startswith("http://127.0.0.1:8711/tracing#")
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["JX101", "JX106"]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
    location = results[0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "pkg/a.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 6, "startColumn": 8, "endLine": 6, "endColumn": 13}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == findings.root.as_uri() + "/"


def test_github_annotations(findings):
    result = findings.run("check", "--output-format", "github")
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(
        "::error title=xlalens (JX101),file=pkg/a.py,line=6,col=8,endLine=6,endColumn=13::JX101 "
    )


def test_full_shows_source_line_caret_fix_title_and_link(findings):
    result = findings.run("check", "--output-format", "full")
    out = result.stdout
    assert "6 |     if x > 0:\n  |        ^^^^^ JX101\n" in out
    assert "= help: Replace with `jax.debug.print`" in out
    assert "= docs: http://127.0.0.1:8711/tracing#python-control-flow" in out
    assert out.rstrip().endswith("Found 2 errors (1 fixable with --fix).")


def test_junit_is_xml_with_one_failure_per_finding(findings):
    result = findings.run("check", "--output-format", "junit")
    root = ElementTree.fromstring(result.stdout)
    assert root.get("failures") == "2"
    assert [case.get("classname") for case in root.iter("testcase")] == ["JX101", "JX106"]


def test_quiet_prints_findings_only(findings, project):
    result = findings.run("check", "--quiet")
    assert "Found" not in result.stdout and result.stdout.count("\n") == 2
    project.write("pkg/a.py", "import jax\n")
    project.write("pkg/b.py", "import jax\n")
    assert findings.run("check", "--quiet").stdout == ""


def test_unknown_output_format_is_a_usage_error(project):
    result = project.run("check", "--output-format", "xml")
    assert result.returncode == 2 and "sarif" in result.stderr


# --- renderers on crafted reports -----------------------------------------------------------


def _report(tmp_path: Path, *diagnostics: Diagnostic, **kwargs) -> Report:
    return Report(diagnostics=list(diagnostics), cwd=tmp_path, version="1.2.3", **kwargs)


def test_concise_sorts_marks_fixable_and_summarises(tmp_path):
    fix = Fix("do it", Applicability.SAFE, (Edit(_range(2, 0, 1), "y"),))
    report = _report(
        tmp_path,
        Diagnostic("JX106", "second", str(tmp_path / "b.py"), _range(1, 0, 1), fix=fix),
        Diagnostic("JX101", "first", str(tmp_path / "a.py"), _range(3, 4, 5)),
    )
    assert _render("concise", report) == (
        "a.py:3:5: JX101 first\nb.py:1:1: JX106 [*] second\nFound 2 errors (1 fixable with --fix).\n"
    )


def test_paths_outside_cwd_stay_absolute(tmp_path):
    outside = str(Path("/elsewhere/m.py"))
    report = _report(tmp_path, Diagnostic("JX101", "m", outside, _range(1, 0, 1)))
    assert _render("concise", report).startswith(f"{outside}:1:1: JX101 m")
    sarif = sarif_log(report)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert sarif["artifactLocation"] == {"uri": "file:///elsewhere/m.py"}


def test_full_caret_accounts_for_tabs_and_wide_characters(tmp_path):
    file = tmp_path / "m.py"
    file.write_text("\t值 = f(x)\n", encoding="utf-8")
    report = _report(tmp_path, Diagnostic("JX101", "m", str(file), _range(1, 5, 9)))
    out = _render("full", report)
    # tab -> 4 cells, 值 -> 2 cells, " = " -> 3 cells: the caret starts at cell 9.
    assert "1 |     值 = f(x)\n  | " + " " * 9 + "^^^^ JX101\n" in out


def test_full_without_a_readable_file_still_prints_the_headline(tmp_path):
    report = _report(tmp_path, Diagnostic("JX101", "m", str(tmp_path / "gone.py"), _range(1, 0, 1)))
    assert _render("full", report).startswith("gone.py:1:1: JX101 m\n")


def test_github_escapes_properties_and_message(tmp_path):
    path = str(tmp_path / "a,b:c.py")
    report = _report(
        tmp_path,
        Diagnostic("JX101", "50% of\nlines", path, _range(1, 0, 2), severity=Severity.WARNING),
        Diagnostic("E998", "newer", path, _range(1, 0, 0), severity=Severity.INFO),
    )
    lines = _render("github", report).splitlines()
    assert lines[0] == (
        "::notice title=xlalens (E998),file=a%2Cb%3Ac.py,line=1,col=1,endLine=1,endColumn=1::E998 newer"
    )
    assert lines[1].startswith("::warning title=xlalens (JX101),file=a%2Cb%3Ac.py,")
    assert lines[1].endswith("::JX101 50%25 of%0Alines")


def test_sarif_lists_non_rule_codes_and_maps_severity(tmp_path):
    report = _report(
        tmp_path,
        Diagnostic("E999", "SyntaxError: x", str(tmp_path / "m.py"), _range(1, 0, 0)),
        Diagnostic("E998", "newer", str(tmp_path / "n.py"), _range(1, 0, 0), severity=Severity.INFO),
    )
    log = sarif_log(report)
    jsonschema.validate(log, SARIF_SCHEMA)
    run = log["runs"][0]
    ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert "E999" in ids and "E998" in ids
    assert [r["level"] for r in run["results"]] == ["error", "note"]
    assert run["tool"]["driver"]["version"] == "1.2.3"


def test_sarif_uri_is_percent_encoded_with_forward_slashes(tmp_path):
    report = _report(tmp_path, Diagnostic("JX101", "m", str(tmp_path / "my dir" / "m.py"), _range(1, 0, 1)))
    location = sarif_log(report)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "my%20dir/m.py"


def test_summary_variants(tmp_path):
    unsafe = Fix("maybe", Applicability.UNSAFE, (Edit(_range(1, 0, 1), "y"),))
    d = Diagnostic("JX103", "m", str(tmp_path / "m.py"), _range(1, 0, 1), fix=unsafe)
    assert _report(tmp_path).summary() == "All checks passed!"
    assert _report(tmp_path, d).summary() == (
        "Found 1 error.\n(1 hidden fix can be enabled with the --unsafe-fixes option.)"
    )
    assert _report(tmp_path, d, unsafe_fixes=True).summary() == "Found 1 error (1 fixable with --fix)."
    assert _report(tmp_path, fixed=2).summary() == "Found 2 errors (2 fixed, 0 remaining)."


def test_statistics_rows(tmp_path):
    safe = Fix("f", Applicability.SAFE, (Edit(_range(1, 0, 1), "y"),))
    path = str(tmp_path / "m.py")
    report = _report(
        tmp_path,
        Diagnostic("JX106", "m", path, _range(1, 0, 1), fix=safe),
        Diagnostic("JX101", "m", path, _range(2, 0, 1)),
        Diagnostic("JX101", "m", path, _range(3, 0, 1)),
        Diagnostic("E999", "m", path, _range(4, 0, 1)),
    )
    rows = statistics_output.statistics(report)
    assert [(r["code"], r["count"], r["fixable"]) for r in rows] == [
        ("JX101", 2, False),
        ("E999", 1, False),
        ("JX106", 1, True),
    ]
    assert rows[1]["name"] == "syntax-error"


def test_register_format_validates_names(monkeypatch):
    from xlalens.analyzers import output

    monkeypatch.setattr(output, "_FORMATS", dict(output._FORMATS))
    with pytest.raises(ValueError, match="known formats are: concise, full"):
        register_format("json", lambda report, out: None)
    with pytest.raises(ValueError, match="kebab-case"):
        register_format("My Format", lambda report, out: None)
    register_format("count", lambda report, out: out.write(str(len(report.diagnostics))))
    assert "count" in format_names()
    with pytest.raises(KeyError, match="known formats are"):
        get_format("nope")


def test_every_builtin_format_renders_an_empty_report(tmp_path):
    for name in format_names():
        _render(name, _report(tmp_path))  # must not raise


@pytest.mark.parametrize("name", format_names())
@pytest.mark.parametrize(
    "values",
    [
        {"block": (0, 0), "array": "x"},
        {"array": 10**400},
        {"array": "x"},
        {"other-buffers": (0, 0)},
        {"grid": object()},
    ],
)
def test_no_format_raises_on_a_calculator_link_that_cannot_be_built(name, values, tmp_path):
    path = str(tmp_path / "m.py")
    odd = Diagnostic(
        "JX401",
        "message with\nnewline, \x1b escape and \u00e9",
        path,
        _range(10**6, 0, 5),
        calculator=("blockspec", values),
    )
    out = io.StringIO()
    get_format(name)(Report([odd], cwd=tmp_path), out)
    assert "calc/blockspec?" not in out.getvalue()
