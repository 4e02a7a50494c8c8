"""Inlay hints: the inferred ``dtype[shape]`` after each array-valued assignment target, and the span hints
(Pallas grids and blocks, and the like)."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from xlalens.analyzers.annotate import Annotation
from xlalens.analyzers.models.hints import SpanHint
from xlalens.server.positions import PositionConverter


def inlay_hints(
    annotations: Sequence[Annotation | SpanHint], positions: PositionConverter, visible: types.Range
) -> list[types.InlayHint]:
    """Hints for the annotations on the lines of ``visible`` (what the editor shows)."""
    first, last = visible.start.line + 1, visible.end.line + 1
    return [
        types.InlayHint(
            position=positions.to_lsp(annotation.position),
            label=f": {annotation.label}",
            kind=types.InlayHintKind.Type,
            tooltip=f"xlalens: {annotation.description}",
        )
        for annotation in annotations
        if first <= annotation.position.line <= last
    ]
