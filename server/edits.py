"""Workspace edits for fixes: from stored JSON edits, and for whole-document fix runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lsprotocol import types
from xlalens.analyzers.core.diagnostics import Edit, Position, Range
from xlalens.analyzers.core.source import SourceText
from xlalens.server.positions import PositionConverter


def text_edit_from_json(data: Mapping[str, Any]) -> types.TextEdit:
    """A ``TextEdit`` from the JSON form stored in a diagnostic's ``data``."""
    start, end = data["range"]["start"], data["range"]["end"]
    return types.TextEdit(
        range=types.Range(
            start=types.Position(line=int(start["line"]), character=int(start["character"])),
            end=types.Position(line=int(end["line"]), character=int(end["character"])),
        ),
        new_text=str(data["newText"]),
    )


def workspace_edit(
    uri: str, version: int | None, edits: Sequence[types.TextEdit], document_changes: bool
) -> types.WorkspaceEdit:
    """Edits to one document; versioned (so a client refuses them on a changed text) when it supports that."""
    if document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                    edits=list(edits),
                )
            ]
        )
    return types.WorkspaceEdit(changes={uri: list(edits)})


def replacement_edit(before: str, after: str) -> Edit | None:
    """One edit turning ``before`` into ``after``: the changed middle, so the cursor and folds stay put.

    Examples:
        >>> replacement_edit("a\\nprint(x)\\nb\\n", "a\\njax.debug.print(x)\\nb\\n").content
        'jax.debug.'
        >>> replacement_edit("same", "same") is None
        True
    """
    if before == after:
        return None
    prefix = 0
    limit = min(len(before), len(after))
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and before[len(before) - 1 - suffix] == after[len(after) - 1 - suffix]:
        suffix += 1
    # Never split a \r\n pair: an edit boundary between them would leave a bare line break.
    if before[prefix - 1 : prefix + 1] == "\r\n":
        prefix -= 1
    end = len(before) - suffix
    if before[end - 1 : end + 1] == "\r\n":
        suffix -= 1
        end += 1
    return Edit(Range(_position_at(before, prefix), _position_at(before, end)), after[prefix : len(after) - suffix])


def _position_at(text: str, offset: int) -> Position:
    lines = SourceText(text[:offset]).lines
    return Position(len(lines), len(lines[-1]))


def lsp_text_edit(edit: Edit, positions: PositionConverter) -> types.TextEdit:
    """An engine edit in client units."""
    return types.TextEdit(range=positions.range_to_lsp(edit.range), new_text=edit.content)
