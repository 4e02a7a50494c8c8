"""``# noqa`` comments: the edit that silences a code on a line, and the code under the cursor.

Examples:
    >>> text = SourceText("x = f(y)  # noqa: JX101\\nz = g(y)\\n")
    >>> noqa_edit(text, 1, "JX106").content
    '# noqa: JX101, JX106'
    >>> noqa_edit(text, 2, "JX106").content
    '  # noqa: JX106'
    >>> noqa_edit(SourceText("s = f('''a\\nb''')\\n"), 1, "JX101", 4) is None
    True
    >>> noqa_code_at("x = f(y)  # noqa: JX101, JX106", 26)
    'JX106'
"""

from __future__ import annotations

import io
import re
import tokenize

from xlalens.analyzers.core.diagnostics import Edit, Position, Range
from xlalens.analyzers.core.source import SourceText

_CODE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)


def noqa_edit(source: SourceText, line: int, code: str, column: int = 0) -> Edit | None:
    """The edit that adds ``code`` to the ``# noqa`` comment on ``line``, or writes one.

    Args:
        source: The text.
        line: The 1-based line the suppression must sit on.
        code: The rule code to silence.
        column: Where the flagged code starts on ``line``: a token boundary, from which the rest of
            the line tells whether its end is inside a string.

    Returns:
        The edit, or ``None`` when the line already silences everything (a bare ``# noqa``) or
        cannot take a comment (it ends inside a string or continues with a backslash).
    """
    text = source.line(line)
    existing = SourceText(text).noqa.get(1) if "noqa" in text.lower() else None
    if existing is not None:
        if not existing.codes or code in existing.codes:
            return None
        codes = _CODE.findall(text[existing.start_column : existing.end_column])
        replacement = f"# noqa: {', '.join([*codes, code])}"
        return Edit(Range(Position(line, existing.start_column), Position(line, existing.end_column)), replacement)
    if _ends_open(text[column:]):
        return None
    end = len(text.rstrip())
    return Edit(Range(Position(line, end), Position(line, len(text))), f"  # noqa: {code}")


def _ends_open(rest: str) -> bool:
    """Whether a comment appended to ``rest`` (a line from a token boundary on) would not be a comment.

    Only this part of the line is tokenized, and only when it has a quote: a file-wide pass would
    cost more than the check itself on large files.
    """
    if rest.rstrip().endswith("\\"):
        return True
    if '"' not in rest and "'" not in rest:
        return False
    try:
        for _ in tokenize.generate_tokens(io.StringIO(rest + "\n").readline):
            pass
    except tokenize.TokenError as error:
        # Unbalanced brackets are fine (the statement goes on); an unfinished string is not.
        return "string" in str(error.args[0])
    except SyntaxError:
        return True
    return False


def noqa_code_at(line_text: str, column: int) -> str | None:
    """The rule code at ``column`` (0-based, code points) inside a ``# noqa: …`` comment on the line."""
    comment = SourceText(line_text).noqa.get(1)
    if comment is None or not comment.start_column <= column <= comment.end_column:
        return None
    for code in _CODE.finditer(line_text, comment.start_column, comment.end_column):
        if code.start() <= column <= code.end():
            return code.group(0).upper()
    return None
