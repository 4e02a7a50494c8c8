"""``# noqa`` comments: the edit that silences a code on a line, and the code under the cursor.

Examples:
    >>> text = SourceText("x = f(y)  # noqa: JX101\\nz = g(y)\\n")
    >>> noqa_edit(text, 1, "JX106").content
    '# noqa: JX101, JX106'
    >>> noqa_edit(text, 2, "JX106").content
    '  # noqa: JX106'
    >>> noqa_code_at("x = f(y)  # noqa: JX101, JX106", 26)
    'JX106'
"""

from __future__ import annotations

import io
import re
import tokenize

from xlalens.analyzers.model import Edit, Position, Range
from xlalens.analyzers.source import SourceText

_CODE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)


def noqa_edit(source: SourceText, line: int, code: str, open_lines: frozenset[int] = frozenset()) -> Edit | None:
    """The edit that adds ``code`` to the ``# noqa`` comment on ``line``, or writes one.

    Args:
        source: The text.
        line: The 1-based line the suppression must sit on.
        code: The rule code to silence.
        open_lines: Lines whose end lies inside a string or a backslash continuation (see
            :func:`open_line_ends`), where a comment cannot be appended.

    Returns:
        The edit, or ``None`` when the line already silences everything (a bare ``# noqa``) or
        cannot take a comment.
    """
    text = source.line(line)
    existing = source.noqa.get(line)
    if existing is not None:
        if not existing.codes or code in existing.codes:
            return None
        codes = _CODE.findall(text[existing.start_column : existing.end_column])
        replacement = f"# noqa: {', '.join([*codes, code])}"
        return Edit(Range(Position(line, existing.start_column), Position(line, existing.end_column)), replacement)
    if line in open_lines:
        return None
    end = len(text.rstrip())
    return Edit(Range(Position(line, end), Position(line, len(text))), f"  # noqa: {code}")


def open_line_ends(source: SourceText, last_line: int) -> frozenset[int]:
    """Lines up to ``last_line`` whose end is inside a multi-line token or continued with ``\\``.

    Tokenizes only as far as needed; a text that does not tokenize marks every line open, so no
    comment is ever appended to code the tokenizer cannot follow.
    """
    open_lines: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source.text).readline):
            start, end = token.start[0], token.end[0]
            if start > last_line:
                break
            open_lines.update(range(start, end))
    except (tokenize.TokenError, SyntaxError):
        return frozenset(range(1, last_line + 1))
    for number in range(1, min(last_line, len(source.lines)) + 1):
        if source.line(number).rstrip().endswith("\\"):
            open_lines.add(number)
    return frozenset(open_lines)


def noqa_code_at(line_text: str, column: int) -> str | None:
    """The rule code at ``column`` (0-based, code points) inside a ``# noqa: …`` comment on the line."""
    comment = SourceText(line_text).noqa.get(1)
    if comment is None or not comment.start_column <= column <= comment.end_column:
        return None
    for code in _CODE.finditer(line_text, comment.start_column, comment.end_column):
        if code.start() <= column <= code.end():
            return code.group(0).upper()
    return None
