"""``github``: GitHub Actions workflow commands, which annotate the lines of a pull request.

One line per diagnostic::

    ::error title=xlalens (JX101),file=pkg/model.py,line=4,col=8,endLine=4,endColumn=13::JX101 ...

Property values and the message are escaped as the workflow-command syntax requires.
"""

from __future__ import annotations

from typing import TextIO

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.output.report import Report

_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, out: TextIO) -> None:
    """Write ``report`` as workflow commands."""
    for d in report.sorted_diagnostics():
        properties = {
            "title": f"xlalens ({d.code})",
            "file": report.display_path(d.path).replace("\\", "/"),
            "line": d.line,
            "col": d.column + 1,
            "endLine": d.range.end.line,
            "endColumn": d.range.end.column + 1,
        }
        joined = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties.items())
        out.write(f"::{_LEVELS[d.severity]} {joined}::{_escape_data(f'{d.code} {d.message}')}\n")
