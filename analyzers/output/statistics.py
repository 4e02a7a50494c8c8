"""``--statistics``: how many diagnostics each code has, most frequent first.

Text lines look like ruff's: the count, the code, ``[*]`` when ``--fix`` can fix at least one of
them (``[ ]`` otherwise) and the rule name::

    12  JX101  [ ] python-control-flow-on-tracer
     3  JX106  [*] print-in-traced-function
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, TextIO

from xlalens.analyzers.output.report import Report, code_name


def statistics(report: Report) -> list[dict[str, Any]]:
    """One ``{code, name, count, fixable}`` per code, by descending count, then code."""
    counts = Counter(d.code for d in report.diagnostics)
    fixable = {d.code for d in report.diagnostics if report.is_fixable(d)}
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [
        {"code": code, "name": code_name(code), "count": count, "fixable": code in fixable} for code, count in ordered
    ]


def render(report: Report, out: TextIO, *, as_json: bool = False) -> None:
    """Write the statistics of ``report`` as text lines or, with ``as_json``, a JSON array."""
    rows = statistics(report)
    if as_json:
        out.write(json.dumps(rows, indent=2) + "\n")
        return
    if not rows:
        return
    count_width = max(len(str(row["count"])) for row in rows)
    code_width = max(len(row["code"]) for row in rows)
    for row in rows:
        marker = "[*]" if row["fixable"] else "[ ]"
        line = f"{row['count']:>{count_width}}\t{row['code']:<{code_width}}\t{marker} {row['name']}"
        out.write(line.rstrip() + "\n")
