"""Engine diagnostics as LSP diagnostics.

Each LSP diagnostic carries, in ``data``, everything a code action needs (the fix's edits and
applicability, and the ``# noqa`` edit), already in the client's position units, so code actions
never check the file again. ``data`` also names the document version the edits belong to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls import uris
from xlalens.analyzers.core.codes import is_file_level
from xlalens.analyzers.core.diagnostics import Diagnostic, Edit, Range
from xlalens.analyzers.core.noqa import noqa_edit
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.engine import registry
from xlalens.explainers.links import DEFAULT_BASE_URL, rule_url
from xlalens.server.positions import PositionConverter
from xlalens.server.settings import ClientSettings

SOURCE = "xlalens"
"""The ``source`` of every diagnostic the server publishes."""


@dataclass(frozen=True)
class ConversionContext:
    """What converting one document's diagnostics needs.

    Attributes:
        uri: The document.
        version: The document version the diagnostics were computed for.
        source: The text they were computed for.
        encoding: The negotiated position encoding.
        client: The client's settings (severities).
        related_information: Whether the client shows ``relatedInformation``.
        explainer_base_url: Where the explainer site is; a rule's code links to its page there.
    """

    uri: str
    version: int | None
    source: SourceText
    encoding: str
    client: ClientSettings
    related_information: bool
    explainer_base_url: str = DEFAULT_BASE_URL


def code_href(diagnostic: Diagnostic, base_url: str) -> str | None:
    """The link of a diagnostic's code: the rule's page for a rule, else the diagnostic's own link."""
    try:
        registry.get_rule(diagnostic.code)
    except KeyError:  # E999 and other codes that are not rules
        return diagnostic.url
    return rule_url(base_url, diagnostic.code)


def text_edit(edit: Edit, positions: PositionConverter) -> dict[str, Any]:
    """An engine edit as a JSON ``TextEdit``."""
    lsp_range = positions.range_to_lsp(edit.range)
    return {
        "range": {
            "start": {"line": lsp_range.start.line, "character": lsp_range.start.character},
            "end": {"line": lsp_range.end.line, "character": lsp_range.end.character},
        },
        "newText": edit.content,
    }


def _location_uri(path: str, context: ConversionContext, own_path: str) -> str:
    if path == own_path:
        return context.uri
    return uris.from_fs_path(path) or context.uri


def to_lsp_diagnostics(diagnostics: Sequence[Diagnostic], context: ConversionContext) -> list[types.Diagnostic]:
    """Convert one document's diagnostics, in order."""
    positions = PositionConverter(context.source, context.encoding)
    converted = []
    for diagnostic in diagnostics:
        data: dict[str, Any] = {"uri": context.uri, "version": context.version, "code": diagnostic.code}
        if diagnostic.fix is not None and diagnostic.fix.edits:
            data["fix"] = {
                "title": diagnostic.fix.message,
                "applicability": diagnostic.fix.applicability.value,
                "edits": [text_edit(edit, positions) for edit in diagnostic.fix.edits],
            }
        if not is_file_level(diagnostic.code) and diagnostic.noqa_line >= 1:
            column = diagnostic.column if diagnostic.line == diagnostic.noqa_line else 0
            edit = noqa_edit(context.source.line(diagnostic.noqa_line), diagnostic.noqa_line, diagnostic.code, column)
            if edit is not None:
                data["noqa"] = text_edit(edit, positions)
        related = None
        if context.related_information and diagnostic.related:
            related = [
                types.DiagnosticRelatedInformation(
                    location=types.Location(
                        uri=_location_uri(r.path, context, diagnostic.path),
                        range=positions.range_to_lsp(r.range) if r.path == diagnostic.path else _plain_range(r.range),
                    ),
                    message=r.message,
                )
                for r in diagnostic.related
            ]
        href = code_href(diagnostic, context.explainer_base_url)
        converted.append(
            types.Diagnostic(
                range=positions.range_to_lsp(diagnostic.range),
                message=diagnostic.message,
                severity=context.client.severity_of(diagnostic.code, diagnostic.severity),
                code=diagnostic.code,
                code_description=types.CodeDescription(href=href) if href else None,
                source=SOURCE,
                related_information=related,
                data=data,
            )
        )
    return converted


def _plain_range(range_: Range) -> types.Range:
    # A location in another file: its text is not at hand, so columns stay code points.
    return types.Range(
        start=types.Position(line=range_.start.line - 1, character=range_.start.column),
        end=types.Position(line=range_.end.line - 1, character=range_.end.column),
    )
