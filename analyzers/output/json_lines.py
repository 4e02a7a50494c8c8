"""``json-lines``: one JSON object per line, with the same fields as the ``json`` format."""

from __future__ import annotations

import json
from typing import TextIO

from xlalens.analyzers.output.json import diagnostic_object
from xlalens.analyzers.output.report import Report


def render(report: Report, out: TextIO) -> None:
    """Write ``report`` as JSON Lines."""
    for diagnostic in report.sorted_diagnostics():
        out.write(json.dumps(diagnostic_object(diagnostic, report.explainer_base_url), ensure_ascii=False) + "\n")
