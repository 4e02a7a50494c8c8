"""``concise``: one line per diagnostic, ``path:line:col: CODE message``, then a summary.

Columns are 1-based, as editors and terminals count them. A ``[*]`` before the message marks a
diagnostic that ``--fix`` would repair.
"""

from __future__ import annotations

from typing import TextIO

from xlalens.analyzers.core.diagnostics import Diagnostic
from xlalens.analyzers.output.report import Report


def headline(report: Report, diagnostic: Diagnostic) -> str:
    """``path:line:col: CODE [*] message`` for one diagnostic."""
    marker = "[*] " if report.is_fixable(diagnostic) else ""
    return (
        f"{report.display_path(diagnostic.path)}:{diagnostic.line}:{diagnostic.column + 1}: "
        f"{diagnostic.code} {marker}{diagnostic.message}"
    )


def render(report: Report, out: TextIO) -> None:
    """Write ``report`` in the concise format."""
    for diagnostic in report.sorted_diagnostics():
        out.write(headline(report, diagnostic) + "\n")
    if not report.quiet:
        out.write(report.summary() + "\n")
