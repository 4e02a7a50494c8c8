"""Source text helpers: lines, column conversion and suppression comments.

``ast`` reports columns as UTF-8 byte offsets; diagnostics count code points. Lines are split
the way Python's tokenizer splits them (``\\n``, ``\\r\\n``, ``\\r``), not with
``str.splitlines``, which also breaks on form feeds and other separators.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from xlalens.analyzers.core.diagnostics import Position, Range
from xlalens.analyzers.core.noqa import Noqa, comments, is_file_noqa, may_hold_file_noqa, may_hold_noqa, parse_noqa

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass
class SourceText:
    """A source file's text with line and column helpers.

    Examples:
        >>> text = SourceText("x = 'é'  # noqa: JX101\\ny = 1\\n")
        >>> text.line(1)
        "x = 'é'  # noqa: JX101"
        >>> text.column(1, 9)
        8
        >>> text.noqa[1].codes
        frozenset({'JX101'})
    """

    text: str
    lines: list[str] = field(init=False)
    newline: str = field(init=False)

    def __post_init__(self) -> None:
        self.lines = _LINE_BREAK.split(self.text)
        match = _LINE_BREAK.search(self.text)
        self.newline = match.group(0) if match else "\n"

    def line(self, number: int) -> str:
        """The text of 1-based line ``number`` without its line break."""
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return ""

    def column(self, line: int, byte_offset: int) -> int:
        """Convert a UTF-8 byte offset on ``line`` to a code point column."""
        text = self.line(line)
        if text.isascii():
            return byte_offset
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", errors="replace"))

    def node_range(self, node: object) -> Range:
        """The range of an ``ast`` node (which must carry positions)."""
        start_line = node.lineno  # type: ignore[attr-defined]
        end_line = node.end_lineno or start_line  # type: ignore[attr-defined]
        end_col = node.end_col_offset  # type: ignore[attr-defined]
        return Range(
            Position(start_line, self.column(start_line, node.col_offset)),  # type: ignore[attr-defined]
            Position(end_line, self.column(end_line, end_col if end_col is not None else 0)),
        )

    def offset(self, position: Position) -> int:
        """The index into ``text`` of a position."""
        offsets = self._line_offsets
        line_index = min(max(position.line - 1, 0), len(offsets) - 1)
        return offsets[line_index] + position.column

    @functools.cached_property
    def _line_offsets(self) -> list[int]:
        return [0, *(match.end() for match in _LINE_BREAK.finditer(self.text))]

    def segment(self, range_: Range) -> str:
        """The text covered by ``range_``."""
        return self.text[self.offset(range_.start) : self.offset(range_.end)]

    @property
    def file_noqa(self) -> bool:
        """Whether a ``# xlalens: noqa`` comment turns off the whole file."""
        return may_hold_file_noqa(self.text) and any(is_file_noqa(comment) for _, comment in self._comments.values())

    @functools.cached_property
    def noqa(self) -> dict[int, Noqa]:
        """Line -> the ``# noqa`` comment on it."""
        found: dict[int, Noqa] = {}
        if may_hold_noqa(self.text):
            for line, (column, comment) in self._comments.items():
                parsed = parse_noqa(comment, line, column)
                if parsed is not None:
                    found[line] = parsed
        return found

    @functools.cached_property
    def _comments(self) -> dict[int, tuple[int, str]]:
        """Line -> (column, text) of the comment on it; the file is tokenized once."""
        return {line: (column, comment) for line, column, comment in comments(self.text)}
