"""The suppression comments' grammar, for the engine, the CLI and the language server alike.

``# noqa`` silences every finding on its line, ``# noqa: JX101, JX106`` only those codes, and
``# xlalens: noqa`` anywhere in a comment turns the whole file off. Codes are read case-insensitively
and kept upper-case. Only real comments count: the text ``# noqa`` inside a string does not.

Examples:
    >>> found = parse_noqa("# noqa: jx101,JX106  (tracing)", line=3, column=10)
    >>> sorted(found.codes), found.start_column, found.end_column
    (['JX101', 'JX106'], 10, 29)
    >>> parse_noqa("# noqa", 1, 0).codes
    frozenset()
    >>> noqa_edit("x = f(y)  # noqa: JX101", 1, "JX106").content
    '# noqa: JX101, JX106'
    >>> noqa_edit("z = g(y)", 2, "JX106").content
    '  # noqa: JX106'
    >>> noqa_edit("s = f('''a", 1, "JX101", 4) is None
    True
    >>> noqa_code_at("x = f(y)  # noqa: JX101, JX106", 26)
    'JX106'
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from xlalens.analyzers.core.codes import is_file_level
from xlalens.analyzers.core.diagnostics import Diagnostic, Edit, Position, Range

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_FILE_NOQA = re.compile(r"#\s*xlalens\s*:\s*noqa\b", re.IGNORECASE)
_CODE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Noqa:
    """A ``# noqa`` comment: the codes it names (empty means all) and where it sits."""

    line: int
    codes: frozenset[str]
    start_column: int
    end_column: int


def parse_noqa(comment: str, line: int, column: int) -> Noqa | None:
    """The ``# noqa`` inside ``comment`` (a comment token starting at ``column`` of ``line``), if any."""
    match = _NOQA.search(comment)
    if match is None:
        return None
    codes = frozenset(code.upper() for code in _CODE.findall(match.group("codes") or ""))
    return Noqa(line, codes, column + match.start(), column + match.end())


def may_hold_noqa(text: str) -> bool:
    """A cheap test that lets a file without the word ``noqa`` skip tokenizing."""
    return "noqa" in text.lower()


def may_hold_file_noqa(text: str) -> bool:
    """A cheap test that lets a file without ``xlalens: noqa`` skip tokenizing."""
    return _FILE_NOQA.search(text) is not None


def is_file_noqa(comment: str) -> bool:
    """Whether the comment ``comment`` turns the whole file off."""
    return _FILE_NOQA.search(comment) is not None


def comments(text: str) -> Iterator[tuple[int, int, str]]:
    """The ``(line, column, text)`` of every comment token in ``text``; stops quietly where tokenizing fails."""
    try:
        # Universal newlines: a file that ends its lines with a lone \r has them split there too, as Python does.
        for token in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.start[1], token.string
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return


def line_noqa(line_text: str) -> Noqa | None:
    """The ``# noqa`` comment of a single line of code (reported as line 1)."""
    if not may_hold_noqa(line_text):
        return None
    for line, column, comment in comments(line_text):
        return parse_noqa(comment, line, column)
    return None


def noqa_edit(line_text: str, line: int, code: str, column: int = 0) -> Edit | None:
    """The edit that adds ``code`` to the ``# noqa`` comment of line ``line``, or writes one.

    Args:
        line_text: The text of that line, without its line break.
        line: Its 1-based number.
        code: The rule code to silence.
        column: Where the flagged code starts on the line: a token boundary, from which the rest of
            the line tells whether its end is inside a string.

    Returns:
        The edit, or ``None`` when the line already silences everything (a bare ``# noqa``) or
        cannot take a comment (it ends inside a string or continues with a backslash).
    """
    existing = line_noqa(line_text)
    if existing is not None:
        if not existing.codes or code in existing.codes:
            return None
        codes = _CODE.findall(line_text[existing.start_column : existing.end_column])
        replacement = f"# noqa: {', '.join([*codes, code])}"
        return Edit(Range(Position(line, existing.start_column), Position(line, existing.end_column)), replacement)
    if _ends_open(line_text[column:]):
        return None
    end = len(line_text.rstrip())
    return Edit(Range(Position(line, end), Position(line, len(line_text))), f"  # noqa: {code}")


def add_noqa_comments(text: str, diagnostics: Iterable[Diagnostic]) -> tuple[str, int]:
    r"""``text`` with a ``# noqa: CODE`` for every finding, merged into the comments lines already have.

    Findings about a whole file and lines that cannot take a comment (inside a string, after a
    backslash) are left as they are.

    Returns:
        The new text and the number of codes added.

    Examples:
        >>> from xlalens.analyzers.core.diagnostics import Diagnostic, Position, Range
        >>> at = lambda line: Range(Position(line, 4), Position(line, 5))
        >>> found = [Diagnostic("JX101", "m", "f.py", at(1)), Diagnostic("JX106", "m", "f.py", at(1))]
        >>> add_noqa_comments("if x:\n    pass\n", found)
        ('if x:  # noqa: JX101, JX106\n    pass\n', 2)
    """
    lines = text.splitlines(keepends=True)
    added = 0
    for diagnostic in sorted(diagnostics, key=lambda d: (d.noqa_line or d.line, d.code)):
        line = diagnostic.noqa_line or diagnostic.line
        if is_file_level(diagnostic.code) or not 1 <= line <= len(lines):
            continue
        raw = lines[line - 1]
        body = raw.rstrip("\r\n")
        column = diagnostic.column if diagnostic.line == line else 0
        edit = noqa_edit(body, line, diagnostic.code, column)
        if edit is None:
            continue
        start, end = edit.range.start.column, edit.range.end.column
        lines[line - 1] = body[:start] + edit.content + body[end:] + raw[len(body) :]
        added += 1
    return "".join(lines), added


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
    comment = line_noqa(line_text)
    if comment is None or not comment.start_column <= column <= comment.end_column:
        return None
    for code in _CODE.finditer(line_text, comment.start_column, comment.end_column):
        if code.start() <= column <= code.end():
            return code.group(0).upper()
    return None
