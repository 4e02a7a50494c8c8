"""Reading Python 3.12 syntax (PEP 695 generics and `type` statements, PEP 701 f-strings) with 3.11's ``ast``.

xlalens runs on the user's Python; on 3.11 ``ast.parse`` refuses Python 3.12's type parameters and
``type`` statements, which generic Pallas kernels and their helpers use. :func:`parse` rewrites
them to 3.11 syntax of exactly the same length, so that every other node keeps its line and
column, parses that, and puts the ``type`` statements back as plain assignments:

- a type parameter list (``[T: int, *Ts, **P]``) becomes spaces; the names it declares are
  unknown to the analysis, as annotations are;
- ``type X[T] = value`` becomes ``if 1:X    = value`` (``if 1:`` is as long as ``type `` and keeps
  the statement where it was), and the ``if`` is then replaced by its one assignment.

Only the tokens are looked at, through Python 3.11's tokenizer, after PEP 701 f-strings (nested
quotes, backslashes and comments in replacement fields) have been made 3.11 syntax of the same
length by :mod:`.fstrings`; a file that still cannot be read is left to the caller's syntax error.

Examples:
    >>> tree = parse("def first[T](xs: list[T]) -> T:\\n    return xs[0]\\ntype Pair[T] = tuple[T, T]\\n")
    >>> [type(node).__name__ for node in tree.body]
    ['FunctionDef', 'Assign']
    >>> tree.body[1].targets[0].id, tree.body[1].value.col_offset
    ('Pair', 15)
"""

from __future__ import annotations

import ast
import io
import tokenize
import warnings

from xlalens.analyzers.core import fstrings

_TYPE_PREFIX = "if 1:"
_LINE_STARTS = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)


def parse(text: str, filename: str = "<unknown>") -> ast.Module | None:
    """The tree of ``text`` with PEP 695 syntax read as described above, or None when it has none to rewrite.

    Raises:
        SyntaxError: if the rewritten text does not parse either.
    """
    without_fstrings, fstring_spans = fstrings.rewrite(text)
    rewritten, type_lines = rewrite(without_fstrings)
    if rewritten == text:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        tree = ast.parse(rewritten, filename=filename)
    if type_lines:
        _unwrap_type_statements(tree, type_lines)
    return fstrings.restore(tree, fstring_spans, text)


def rewrite(text: str) -> tuple[str, set[tuple[int, int]]]:
    """``text`` with type parameter lists blanked and ``type`` statements made assignments.

    Returns:
        The new text (``text`` itself when nothing changed) and the ``(line, column)`` of every
        ``type`` statement rewritten.
    """
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text, newline="").readline))
    except (tokenize.TokenError, SyntaxError):
        return text, set()
    # The lines tokenize counted: `str.splitlines` also breaks at form feeds, `\x1c`-`\x1e`, `\x85` and
    # `\u2028`, which would shift every token position after one of them.
    lines = io.StringIO(text, newline="").readlines()
    edits: list[tuple[int, int, int, int, str | None]] = []  # (line, col, end line, end col, replacement)
    type_lines: set[tuple[int, int]] = set()
    previous: tokenize.TokenInfo | None = None
    for index, token in enumerate(tokens):
        kind, string = token.type, token.string
        if kind in (tokenize.NL, tokenize.COMMENT, tokenize.ENCODING):
            continue
        statement_start = previous is None or previous.type in _LINE_STARTS or previous.string == ";"
        previous = token
        following = tokens[index + 1 : index + 3]
        if kind == tokenize.NAME and string in ("def", "class") and len(following) == 2:
            name, bracket = following
            if name.type == tokenize.NAME and bracket.string == "[":
                closing = _matching(tokens, index + 2)
                if closing is not None:
                    edits.append((*bracket.start, *tokens[closing].end, None))
        elif statement_start and kind == tokenize.NAME and string == "type" and len(following) == 2:
            name, after = following
            if name.type == tokenize.NAME and after.string in ("=", "[") and name.start[0] == token.start[0]:
                edits.append((*token.start, *name.start, _TYPE_PREFIX))
                type_lines.add(token.start)
                if after.string == "[":
                    closing = _matching(tokens, index + 2)
                    if closing is not None:
                        edits.append((*after.start, *tokens[closing].end, None))
    if not edits:
        return text, set()
    return _apply(lines, edits), type_lines


def _matching(tokens: list[tokenize.TokenInfo], opening: int) -> int | None:
    depth = 0
    for index in range(opening, len(tokens)):
        string = tokens[index].string
        if tokens[index].type == tokenize.OP and string in "([{":
            depth += 1
        elif tokens[index].type == tokenize.OP and string in ")]}":
            depth -= 1
            if depth == 0:
                return index if string == "]" else None
    return None


def _apply(lines: list[str], edits: list[tuple[int, int, int, int, str | None]]) -> str:
    """Replace each edit's span by spaces (keeping line breaks), or by a text of the same length."""
    rows = [list(line) for line in lines]
    for line, column, end_line, end_column, replacement in edits:
        if replacement is not None:
            width = end_column - column if end_line == line else len(replacement)
            padded = replacement.ljust(width)
            rows[line - 1][column : column + width] = list(padded)
            continue
        for number in range(line, end_line + 1):
            row = rows[number - 1]
            start = column if number == line else 0
            stop = end_column if number == end_line else len(row)
            for at in range(start, stop):
                if row[at] not in "\r\n":
                    row[at] = " "
            if number < end_line:
                # A list that spans lines leaves `def f` and `(` on different lines once blanked: a
                # backslash at the end of each of its lines joins them again, at no cost in columns.
                last = _last_column(row)
                if last >= start:
                    row[last] = "\\"
    return "".join("".join(row) for row in rows)


def _last_column(row: list[str]) -> int:
    """The column of the last character of a line before its line break (-1 for an empty line)."""
    end = len(row)
    while end and row[end - 1] in "\r\n":
        end -= 1
    return end - 1


def _unwrap_type_statements(tree: ast.AST, type_lines: set[tuple[int, int]]) -> None:
    """Replace each ``if 1:`` standing for a ``type`` statement by its assignment."""
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody", "handlers"):
            statements = getattr(node, field, None)
            if not isinstance(statements, list):
                continue
            for position, statement in enumerate(statements):
                if (
                    isinstance(statement, ast.If)
                    and (statement.lineno, statement.col_offset) in type_lines
                    and len(statement.body) == 1
                ):
                    statements[position] = statement.body[0]
