"""``full``: each diagnostic with its source line, a caret under the range, fix title and link.

Example::

    model.py:4:8: JX101 Python `if` on traced value `x` inside `jax.jit`
      |
    4 |     if x > 0:
      |        ^^^^^ JX101
      |
      = help: Rewrite with `jax.lax.cond`
      = docs: http://127.0.0.1:8711/tracing#python-control-flow
"""

from __future__ import annotations

import textwrap
from typing import TextIO

from rich.cells import cell_len
from xlalens.analyzers.core.diagnostics import Diagnostic
from xlalens.analyzers.output.concise import headline
from xlalens.analyzers.output.report import Report

_TAB = "    "
_DETAIL_WIDTH = 100


def _wrapped(text: str) -> list[str]:
    """``text`` in lines of at most 100 characters, its own line breaks kept."""
    return [line for paragraph in text.splitlines() for line in textwrap.wrap(paragraph, _DETAIL_WIDTH) or [""]]


def _snippet(report: Report, diagnostic: Diagnostic) -> list[str]:
    line = report.source_line(diagnostic.path, diagnostic.line)
    if line is None:
        return []
    start = min(diagnostic.column, len(line))
    same_line = diagnostic.range.end.line == diagnostic.line
    end = min(diagnostic.range.end.column, len(line)) if same_line else len(line)
    # Tabs and wide characters would put the caret in the wrong place: measure in terminal cells.
    shown = line.replace("\t", _TAB)
    offset = cell_len(line[:start].replace("\t", _TAB))
    width = max(1, cell_len(line[start:end].replace("\t", _TAB)))
    number = str(diagnostic.line)
    gutter = " " * len(number)
    return [
        f"{gutter} |",
        f"{number} | {shown}".rstrip(),
        f"{gutter} | {' ' * offset}{'^' * width} {diagnostic.code}",
        f"{gutter} |",
    ]


def render(report: Report, out: TextIO) -> None:
    """Write ``report`` in the full format."""
    for diagnostic in report.sorted_diagnostics():
        lines = [headline(report, diagnostic), *_snippet(report, diagnostic)]
        if diagnostic.detail:
            lines += [f"  = {line}" if i == 0 else f"    {line}" for i, line in enumerate(_wrapped(diagnostic.detail))]
        if diagnostic.fix is not None:
            lines.append(f"  = help: {diagnostic.fix.message}")
        if diagnostic.url:
            lines.append(f"  = docs: {diagnostic.url}")
        if diagnostic.calculator is not None:
            from xlalens.analyzers.output.site import calculator_link  # the explainers load only when needed

            link = calculator_link(report.explainer_base_url, diagnostic.calculator)
            if link:
                lines.append(f"  = calculator: {link}")
        out.write("\n".join(lines) + "\n\n")
    if not report.quiet:
        out.write(report.summary() + "\n")
