"""``sarif``: SARIF 2.1.0, the format code-scanning services (e.g. GitHub) ingest.

One run whose ``tool.driver`` lists every rule (id, name, short and full description, help URI)
and whose results point at files by URI relative to the current directory (``%SRCROOT%``), with
1-based lines and columns counted in Unicode code points (declared by ``columnKind``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import quote

from xlalens.analyzers.core.codes import NON_RULE_CODES
from xlalens.analyzers.core.diagnostics import Diagnostic, Severity
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine import registry
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.output.report import Report

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://xlalens.dev"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule_descriptor(rule: type[Rule], settings: Settings) -> dict[str, Any]:
    docs = rule.docs()
    return {
        "id": rule.code,
        "name": rule.name(),
        "shortDescription": {"text": rule.summary()},
        "fullDescription": {"text": docs or rule.summary(), "markdown": docs or rule.summary()},
        "helpUri": settings.explainer_url(rule.explainer),
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
        "properties": {"status": rule.status.value},
    }


def _non_rule_descriptor(code: str) -> dict[str, Any]:
    entry = NON_RULE_CODES.get(code)
    name = entry.name if entry is not None else code.lower()
    return {"id": code, "name": name, "shortDescription": {"text": name.replace("-", " ")}}


def _uri(report: Report, path: str) -> tuple[str, bool]:
    """The artifact URI of ``path`` and whether it is relative to ``%SRCROOT%``."""
    shown = report.display_path(path)
    if Path(shown).is_absolute():
        return Path(shown).as_uri(), False
    return quote(shown.replace("\\", "/")), True


def _result(report: Report, d: Diagnostic, index: int) -> dict[str, Any]:
    uri, relative = _uri(report, d.path)
    artifact: dict[str, Any] = {"uri": uri}
    if relative:
        artifact["uriBaseId"] = "%SRCROOT%"
    return {
        "ruleId": d.code,
        "ruleIndex": index,
        "level": _LEVELS[d.severity],
        "message": {"text": f"{d.message}\n\n{d.detail}" if d.detail else d.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact,
                    "region": {
                        "startLine": d.line,
                        "startColumn": d.column + 1,
                        "endLine": d.range.end.line,
                        "endColumn": d.range.end.column + 1,
                    },
                }
            }
        ],
    }


def sarif_log(report: Report) -> dict[str, Any]:
    """The SARIF log object for ``report``."""
    settings = Settings(explainer_base_url=report.explainer_base_url)
    rules = [_rule_descriptor(rule, settings) for rule in registry.all_rules()]
    known = {rule["id"] for rule in rules}
    for code in sorted({d.code for d in report.diagnostics} - known):
        rules.append(_non_rule_descriptor(code))
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "xlalens",
                        "version": report.version,
                        "informationUri": INFORMATION_URI,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": report.cwd.as_uri() + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": [_result(report, d, index[d.code]) for d in report.sorted_diagnostics()],
            }
        ],
    }


def render(report: Report, out: TextIO) -> None:
    """Write ``report`` as a SARIF 2.1.0 log."""
    out.write(json.dumps(sarif_log(report), indent=2, ensure_ascii=False) + "\n")
