"""The data every front end shares: positions, edits, fixes and diagnostics.

Positions are 1-based lines and 0-based columns counted in Unicode code points,
the way a person counts characters. Output formats convert at the edge (ruff's
JSON uses 1-based columns, LSP uses UTF-16 code units).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class Applicability(enum.Enum):
    """How far a fix can be trusted.

    ``SAFE`` keeps meaning and comments and is applied by ``--fix``;
    ``UNSAFE`` is valid code that may change behaviour and needs
    ``--unsafe-fixes``; ``DISPLAY_ONLY`` is shown but never applied.
    """

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


class Severity(enum.Enum):
    """How loudly a diagnostic is reported."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True, order=True)
class Position:
    """A place in a file: 1-based ``line``, 0-based ``column`` in code points."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Range:
    """A half-open span ``[start, end)`` of source text."""

    start: Position
    end: Position


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text in ``range`` with ``content`` (empty content deletes)."""

    range: Range
    content: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A set of edits that together repair one diagnostic."""

    message: str
    applicability: Applicability
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class RelatedLocation:
    """A second place that explains a diagnostic, e.g. where a mesh is defined."""

    path: str
    range: Range
    message: str


MESSAGE_LIMIT = 100
"""The most characters a diagnostic's message (its headline) may have; the rest goes in its detail."""

SHORT_SOURCE = 24
"""How many characters of a user's expression a headline quotes by default."""


def shorten(text: str, limit: int = SHORT_SOURCE) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis, for a headline.

    Examples:
        >>> shorten("model.apply(    params,   batch)", 16)
        'model.apply( pa…'
        >>> shorten("x")
        'x'
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def tuple_text(items: tuple[object, ...]) -> str:
    """A tuple as Python prints it, for shapes in messages.

    Examples:
        >>> tuple_text((4,)), tuple_text((2, 3)), tuple_text(())
        ('(4,)', '(2, 3)', '()')
    """
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(map(str, items))})"


def first_fitting(*candidates: str) -> str:
    """The first wording that fits in :data:`MESSAGE_LIMIT` characters, most telling first; else the last.

    Examples:
        >>> first_fitting("x" * 101, "short")
        'short'
    """
    return next((text for text in candidates if len(text) <= MESSAGE_LIMIT), candidates[-1])


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding in one file.

    Attributes:
        code: The rule code, e.g. ``"JX101"``; ``"E999"`` for a file that does not parse.
        message: One clause of at most :data:`MESSAGE_LIMIT` characters that states the problem with the
            user's names and the key number (what editors show inline and ``--output-format concise`` prints).
        path: The file the finding is in, as given to the checker.
        range: Where the finding is.
        severity: The rule's severity, after configuration.
        fix: The repair, if the rule offers one here.
        url: The explainer section that explains the mechanism.
        related: Other places that help explain the finding.
        calculator: The name of the calculator that applies, and its inputs taken from the code.
        noqa_line: The line where a ``# noqa`` comment suppresses this finding.
        detail: The rest of the explanation: the mechanism, the numbers behind the headline, the error
            the library raises and the suggested change (shown by the full, JSON and SARIF formats and
            the hover).
    """

    code: str
    message: str
    path: str
    range: Range
    severity: Severity = Severity.ERROR
    fix: Fix | None = None
    url: str | None = None
    related: tuple[RelatedLocation, ...] = ()
    calculator: tuple[str, Mapping[str, Any]] | None = None
    noqa_line: int = field(default=0)
    detail: str = ""

    @property
    def line(self) -> int:
        """The 1-based line the finding starts on."""
        return self.range.start.line

    @property
    def column(self) -> int:
        """The 0-based column (code points) the finding starts at."""
        return self.range.start.column

    def sort_key(self) -> tuple[str, int, int, str]:
        """Order by file, position, then code, as every output format does."""
        return (self.path, self.range.start.line, self.range.start.column, self.code)
