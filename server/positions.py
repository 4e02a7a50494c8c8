"""Convert positions between the engine and the client.

The engine counts 1-based lines and 0-based columns in code points; LSP counts 0-based lines and
columns in the code units of the negotiated position encoding (UTF-16 unless the client offers
UTF-8 or UTF-32). Lines are split the way both the engine and the LSP specification split them:
on ``\\n``, ``\\r\\n`` and ``\\r`` only.
"""

from __future__ import annotations

from lsprotocol import types
from xlalens.analyzers.core.diagnostics import Position, Range
from xlalens.analyzers.core.source import SourceText


def _units(text: str, encoding: str) -> int:
    if text.isascii() or encoding == types.PositionEncodingKind.Utf32:
        return len(text)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


class PositionConverter:
    """Positions of one text in both conventions.

    Args:
        source: The text the positions refer to.
        encoding: The negotiated ``PositionEncodingKind`` (``"utf-16"``, ``"utf-8"``, ``"utf-32"``).
    """

    def __init__(self, source: SourceText, encoding: str) -> None:
        self._lines = source.lines
        self._encoding = encoding

    def to_lsp(self, position: Position) -> types.Position:
        """An engine position as an LSP position (clamped to the text)."""
        line_index = position.line - 1
        if line_index >= len(self._lines):
            last = len(self._lines) - 1
            return types.Position(line=last, character=_units(self._lines[last], self._encoding))
        line_index = max(line_index, 0)
        text = self._lines[line_index]
        return types.Position(line=line_index, character=_units(text[: position.column], self._encoding))

    def range_to_lsp(self, range_: Range) -> types.Range:
        """An engine range as an LSP range."""
        return types.Range(start=self.to_lsp(range_.start), end=self.to_lsp(range_.end))

    def from_lsp(self, position: types.Position) -> Position:
        """An LSP position as an engine position (clamped to the text)."""
        if position.line >= len(self._lines):
            return Position(len(self._lines), len(self._lines[-1]))
        text = self._lines[position.line]
        if text.isascii() or self._encoding == types.PositionEncodingKind.Utf32:
            return Position(position.line + 1, min(position.character, len(text)))
        units = 0
        for column, character in enumerate(text):
            if units >= position.character:
                return Position(position.line + 1, column)
            units += _units(character, self._encoding)
        return Position(position.line + 1, len(text))

    def range_from_lsp(self, range_: types.Range) -> Range:
        """An LSP range as an engine range."""
        return Range(self.from_lsp(range_.start), self.from_lsp(range_.end))
