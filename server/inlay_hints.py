"""Inlay hints: the inferred ``dtype[shape]`` after each array-valued assignment target, and the span hints
(Pallas grids and blocks, and the like)."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from xlalens.analyzers.annotate import Annotation, inline_label
from xlalens.analyzers.models.hints import SpanHint
from xlalens.server.positions import PositionConverter


def inlay_hints(
    annotations: Sequence[Annotation | SpanHint], positions: PositionConverter, visible: types.Range
) -> list[types.InlayHint]:
    """Hints for the annotations on the lines of ``visible`` (what the editor shows)."""
    first, last = visible.start.line + 1, visible.end.line + 1
    return [
        # A type after an assignment target reads as an annotation; a span hint sits inside argument
        # lists and after parentheses, where `: 2 steps` would read as broken syntax, so it points.
        types.InlayHint(
            position=positions.to_lsp(annotation.position),
            label=inline_label(annotation),
            kind=types.InlayHintKind.Type if isinstance(annotation, Annotation) else None,
            padding_left=isinstance(annotation, SpanHint),
            tooltip=f"xlalens: {annotation.description}",
        )
        for annotation in annotations
        if first <= annotation.position.line <= last
    ]
