"""Hover text: what a finding means, computed on the user's own values, with links to learn more.

On a flagged range the hover shows, per diagnostic: the code and rule name, the message, the
rule's one-paragraph summary, the related locations (for the tracing rules: where and by what the
function is traced, and which argument is a tracer), the fix, the calculator result computed from
the values the analysis found (headline and table), and links to the explainer section and to the
calculator prefilled with the same values. On a code inside ``# noqa: …`` it shows that rule's
documentation. On a ``pl.BlockSpec`` or ``pallas_call`` without a finding it shows the BlockSpec
calculator's table for the numbers found in the code.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from xlalens.analyzers.annotate import Annotation
from xlalens.analyzers.core.diagnostics import Applicability, Diagnostic, Position
from xlalens.analyzers.engine import registry
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.hints import SpanHint
from xlalens.explainers.calculators import Calculator, get_calculator
from xlalens.explainers.calculators.registry import Row
from xlalens.explainers.links import calculator_url, rule_url, section_url

logger = logging.getLogger(__name__)

CalculatorLookup = Callable[[str], Calculator[Any, Any]]

# What a hover on a hinted construct is about, by the calculator it shows.
_HINT_TITLES = {
    "blockspec": "Pallas",
    "carry-check": "Loop carry",
    "shard-shape": "Sharding",
    "roofline": "Matmul",
    "pipeline": "Pallas",
    "reshard": "Sharding",
    "remat": "Remat",
}
_APPLICABILITY = {
    Applicability.SAFE: "safe",
    Applicability.UNSAFE: "unsafe: may change behaviour",
    Applicability.DISPLAY_ONLY: "suggestion: apply by hand",
}


def covers(diagnostic: Diagnostic, position: Position) -> bool:
    """Whether ``position`` lies on the diagnostic's range (its end included, for empty ranges)."""
    return diagnostic.range.start <= position <= diagnostic.range.end


def _rule(code: str) -> type[Rule] | None:
    try:
        return registry.get_rule(code)
    except KeyError:  # E999 and other non-rule codes
        return None


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def calculator_markdown(
    name: str,
    inputs: Mapping[str, Any],
    base_url: str,
    lookup: CalculatorLookup = get_calculator,
    *,
    every_row: bool = False,
) -> list[str]:
    """The calculator's result on ``inputs`` as Markdown paragraphs, and a link to it prefilled.

    A calculator that draws its result adds the picture as a Markdown image (a ``data:`` URI of
    the SVG). Under a finding the table keeps to the key rows (:func:`hover_rows`); a hover on
    the code itself, where the calculation is all there is to show, has ``every_row``. The last
    paragraph is the link to the live calculator. Returns
    nothing when the calculator is unknown, rejects the inputs or fails: a hover never fails
    because of a calculator.
    """
    try:
        calculator = lookup(name)
        query = calculator.query(inputs)
        result = calculator.run(query)
        headline, rows = result.headline, result.rows()
    except Exception as error:  # calculators are plug-ins; whatever they raise must not break the hover
        logger.warning("calculator %r on %r: %s", name, dict(inputs), error)
        return []
    parts = [f"**{calculator.title}:** {headline}"]
    picture = calculator.draw(result)
    if picture is not None:
        # Editors that render Markdown images (VS Code does) show the same picture as the live page.
        alt = picture.text.replace("[", "(").replace("]", ")")
        parts.append(f"![{alt}]({picture.data_uri()})")
    shown = list(rows) if every_row else hover_rows(rows)
    if shown:
        table = ["| | value | how |", "|---|---|---|"]
        table += [f"| {_cell(r.label)} | {_cell(r.value)} | {_cell(r.formula)} |" for r in shown]
        parts.append("\n".join(table))
    link = calculator_url(base_url, name, query)
    more = f" ({len(rows) - len(shown)} more rows there)" if len(shown) < len(rows) else ""
    parts.append(f"[Open the live calculator with these numbers]({link}){more}")
    return parts


HOVER_ROWS = 6
"""The most calculator rows a hover shows; the live calculator shows them all."""


def hover_rows(rows: Sequence[Row]) -> list[Row]:
    """The rows a hover shows: the calculator's key rows, else its first rows, at most :data:`HOVER_ROWS`.

    Examples:
        >>> [r.label for r in hover_rows([Row("a", "1"), Row("b", "2", key=True), Row("c", "3")])]
        ['b']
        >>> len(hover_rows([Row(str(i), "") for i in range(9)]))
        6
    """
    key = [row for row in rows if row.key]
    return (key or list(rows))[:HOVER_ROWS]


def _related_markdown(diagnostic: Diagnostic) -> list[str]:
    lines = []
    for related in diagnostic.related:
        where = f"line {related.range.start.line}"
        if related.path != diagnostic.path:
            where = f"{os.path.basename(related.path)}:{related.range.start.line}"
        lines.append(f"- {related.message} ({where})")
    return ["\n".join(lines)] if lines else []


_CODE_SPAN = re.compile(r"(`+)(?:.|\n)*?\1")
_SUBSCRIPTED = re.compile(r"(?<![\w`])[A-Za-z_][\w.]*\[[^\]\n`]*\]")


def markdown_text(text: str) -> str:
    """``text`` with every subscripted token outside code spans put in one.

    Markdown reads ``f32[30,512]`` as text plus a link label and shows "f3230,512"; as code it
    shows what the message says.

    Examples:
        >>> markdown_text("x is f32[30,512], `y[0]` is not, nor is [this]")
        'x is `f32[30,512]`, `y[0]` is not, nor is [this]'
    """
    pieces, start = [], 0
    for span in _CODE_SPAN.finditer(text):
        pieces.append(_SUBSCRIPTED.sub(r"`\g<0>`", text[start : span.start()]))
        pieces.append(span.group(0))
        start = span.end()
    pieces.append(_SUBSCRIPTED.sub(r"`\g<0>`", text[start:]))
    return "".join(pieces)


def diagnostic_markdown(
    diagnostic: Diagnostic,
    base_url: str,
    lookup: CalculatorLookup = get_calculator,
) -> str:
    """The hover section for one diagnostic."""
    rule = _rule(diagnostic.code)
    title = f"**{diagnostic.code}**" + (f" · {rule.name()}" if rule is not None else "")
    parts = [title, markdown_text(diagnostic.message)]
    if diagnostic.detail:
        parts.append(markdown_text(diagnostic.detail))
    elif rule is not None:
        # Without a detail of its own, the rule's summary says what the finding is about.
        parts.append(f"_{rule.summary()}_")
    parts += _related_markdown(diagnostic)
    if diagnostic.fix is not None:
        parts.append(f"**Fix** ({_APPLICABILITY[diagnostic.fix.applicability]}): {diagnostic.fix.message}")
    calculator_link = []
    if diagnostic.calculator is not None:
        name, inputs = diagnostic.calculator
        calculation = calculator_markdown(name, inputs, base_url, lookup)
        # The live calculator's link joins the other links on the last line.
        calculator_link = calculation[-1:]
        parts += calculation[:-1]
    url = diagnostic.url or (section_url(base_url, rule.explainer) if rule is not None else None)
    links = [*calculator_link, *([f"[Explainer: how this works]({url})"] if url else [])]
    if rule is not None:
        links.append(f"[Rule page]({rule_url(base_url, rule.code)})")
    if links:
        parts.append(" · ".join(links))
    return "\n\n".join(parts)


def diagnostics_markdown(
    diagnostics: Sequence[Diagnostic],
    base_url: str,
    lookup: CalculatorLookup = get_calculator,
) -> str:
    """The hover for every diagnostic under the cursor, separated by rules."""
    return "\n\n---\n\n".join(diagnostic_markdown(d, base_url, lookup) for d in diagnostics)


def span_markdown(
    hints: Sequence[Annotation | SpanHint],
    position: Position,
    base_url: str,
    lookup: CalculatorLookup = get_calculator,
) -> str | None:
    """The calculator table of the hinted construct under the cursor (a BlockSpec, a ``pallas_call``…).

    Unflagged code gets it too: ``hints`` are the document's annotations, of which the
    :class:`~xlalens.analyzers.models.hints.SpanHint` ones cover a span and carry a calculator's inputs.
    The innermost span wins (a BlockSpec inside a ``pallas_call``).
    """
    under = [
        hint
        for hint in hints
        if isinstance(hint, SpanHint)
        and hint.calculator
        and hint.inputs
        and hint.span.start <= position <= hint.span.end
    ]
    if not under:
        return None
    hint = min(under, key=lambda h: (h.span.end.line - h.span.start.line, h.span.end.column - h.span.start.column))
    assert hint.calculator is not None and hint.inputs is not None
    parts = calculator_markdown(hint.calculator, hint.inputs, base_url, lookup, every_row=True)
    if not parts:
        return None
    return "\n\n".join([f"**{_HINT_TITLES.get(hint.calculator, 'xlalens')}** · {hint.description}", *parts])


def rule_markdown(code: str, base_url: str) -> str | None:
    """A rule's documentation for a hover on its code in a ``# noqa`` comment; ``None`` if unknown."""
    rule = _rule(code)
    if rule is None:
        return None
    header = f"**{rule.code}** · {rule.name()} ({rule.status.value})"
    explainer = section_url(base_url, rule.explainer)
    links = f"[Explainer: how this works]({explainer}) · [Rule page]({rule_url(base_url, rule.code)})"
    return f"{header}\n\n{rule.docs()}\n\n{links}"
