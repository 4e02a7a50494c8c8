"""``json``: a JSON array of diagnostics with ruff's field names, so tools that read ruff read us.

Each object has ``code``, ``message``, ``filename`` (absolute), ``location`` and
``end_location`` (``{"row", "column"}``, both 1-based), ``fix`` (``{"applicability", "message",
"edits"}`` or ``null``; each edit has ``content``, ``location``, ``end_location``), ``url``,
``calculator`` (``{"name", "url"}``: the live calculator prefilled with the numbers from the code,
or ``null``), ``noqa_row`` (the line a ``# noqa`` comment for it belongs on) and ``severity``.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from xlalens.analyzers.core.diagnostics import Diagnostic, Position
from xlalens.analyzers.output.report import Report


def location(position: Position) -> dict[str, int]:
    """A model position (0-based column) as ruff's ``{"row", "column"}``, both 1-based."""
    return {"row": position.line, "column": position.column + 1}


def diagnostic_object(diagnostic: Diagnostic, explainer_base_url: str) -> dict[str, Any]:
    """The JSON object for one diagnostic."""
    fix = diagnostic.fix
    calculator = None
    if diagnostic.calculator is not None:
        from xlalens.analyzers.output.site import calculator_link  # the explainers load only when needed

        calculator = {
            "name": diagnostic.calculator[0],
            "url": calculator_link(explainer_base_url, diagnostic.calculator),
        }
    return {
        "code": diagnostic.code,
        "message": diagnostic.message,
        "detail": diagnostic.detail,
        "filename": diagnostic.path,
        "location": location(diagnostic.range.start),
        "end_location": location(diagnostic.range.end),
        "fix": None
        if fix is None
        else {
            "applicability": fix.applicability.value,
            "message": fix.message,
            "edits": [
                {
                    "content": edit.content,
                    "location": location(edit.range.start),
                    "end_location": location(edit.range.end),
                }
                for edit in fix.edits
            ],
        },
        "url": diagnostic.url,
        "calculator": calculator,
        "noqa_row": diagnostic.noqa_line or diagnostic.line,
        "severity": diagnostic.severity.value,
    }


def render(report: Report, out: TextIO) -> None:
    """Write ``report`` as one JSON array."""
    objects = [diagnostic_object(d, report.explainer_base_url) for d in report.sorted_diagnostics()]
    out.write(json.dumps(objects, indent=2, ensure_ascii=False) + "\n")
