"""Reading PEP 701 f-strings (Python 3.12: nested quotes, backslashes, comments) with Python 3.11's ``ast``.

Python 3.12 lets a replacement field hold any expression, ``f"{row["name"]}"`` or
``f"{'\\n'.join(lines)}"``; Python 3.11's tokenizer ends the string at the first matching quote.
:func:`rewrite` turns every f-string into a call of the same length whose arguments are its
fields' expressions at their own positions: ``f"a {x!r:>4} b {y}"`` becomes
``F(  (x)        (y))`` (the literal text, conversion and format spec become spaces), which 3.11
parses; :func:`restore` then puts an ``ast.JoinedStr`` back in place of each such call, with one
``FormattedValue`` per field (the conversion kept, a format spec as text). Every other node keeps
the line and column 3.12 gives it.

Examples:
    >>> text = 'print(f"{d["key"]!r} and {n + 1}")\\n'
    >>> rewritten, done = rewrite(text)
    >>> rewritten
    'print(F((d["key"]  )     (n + 1)))\\n'
    >>> tree = restore(__import__("ast").parse(rewritten), done, text)
    >>> call = tree.body[0].value.args[0]
    >>> type(call).__name__, [type(v).__name__ for v in call.values], call.values[0].conversion
    ('JoinedStr', ['FormattedValue', 'Constant', 'FormattedValue'], 114)
"""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass, field

_PREFIX_LETTERS = frozenset("rRbBuUfF")


@dataclass
class _Field:
    start: int  # offset of the expression's first character (after the ``{``)
    end: int = 0  # offset after the expression
    close: int = 0  # offset of the field's ``}``
    conversion: int = -1
    spec: str | None = None


@dataclass
class FStringSpan:
    """One f-string of the original text: where it is, and what it holds in order."""

    start: int
    end: int
    parts: list[str | _Field] = field(default_factory=list)


@dataclass
class Rewrite:
    """What :func:`rewrite` changed: the f-strings, and the ``+`` it put between implicitly joined strings."""

    spans: list[FStringSpan] = field(default_factory=list)
    joins: list[int] = field(default_factory=list)
    """Offsets of the ``+`` written into the gap of ``f"a" "b"`` (two calls side by side would not parse)."""


class _Unreadable(Exception):
    """The text is not something this scanner reads (an unterminated string, for instance)."""


def rewrite(text: str) -> tuple[str, Rewrite]:
    """``text`` with every f-string made a same-length call of its fields.

    Strings joined implicitly with an f-string (``f"a {x}" " b"``) get a ``+`` in a blank of the gap
    between them, which :func:`restore` undoes. ``(text, Rewrite())`` when there is no f-string or the
    text cannot be read.
    """
    chars = list(text)
    done = Rewrite()
    try:
        _scan_code(text, 0, len(text), chars, done, closing=None)
    except (_Unreadable, IndexError):
        return text, Rewrite()
    if not done.spans:
        return text, Rewrite()
    return "".join(chars), done


def _scan_code(text: str, at: int, stop: int, chars: list[str], done: Rewrite, closing: str | None) -> int:
    """Scan code from ``at``; inside a field, return where the field's expression ends (``}``, ``!``, ``:``, ``=``)."""
    depth = 0
    previous: tuple[int, bool] | None = None  # the end of the last string, and whether it was an f-string
    while at < stop:
        char = text[at]
        if char == "#":
            while at < stop and text[at] not in "\r\n":
                at += 1
            continue
        if char == "\\" and text[at + 1 : at + 2] in ("\n", "\r"):
            at += 3 if text[at + 1 : at + 3] == "\r\n" else 2  # a continued line joins strings across it
            continue
        if char in " \t\f\r\n":
            if char in "\r\n" and depth == 0 and closing is None:
                previous = None  # the statement ended: the next string is not joined to this one
            at += 1
            continue
        if char in "\"'" or (char in _PREFIX_LETTERS and _string_start(text, at)):
            quote = at
            while text[quote] not in "\"'":
                quote += 1
            formatted = "f" in text[at:quote].lower()
            if previous is not None and (previous[1] or formatted):
                done.joins.append(_join(text, chars, previous[0], at))
            at = _scan_string(text, at, chars, done)
            previous = (at, formatted)
            continue
        previous = None
        if char.isalnum() or char == "_":
            while at < stop and (text[at].isalnum() or text[at] == "_"):
                at += 1
            continue
        if closing is not None and depth == 0:
            if char == "}":
                return at
            if char == "!" and at + 1 < stop and text[at + 1] != "=":
                return at
            if char == ":":
                return at
            if char == "=" and text[at + 1 : at + 2] != "=" and text[at - 1 : at] not in ("=", "!", "<", ">"):
                return at
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        at += 1
    if closing is not None:
        raise _Unreadable
    return at


def _join(text: str, chars: list[str], start: int, stop: int) -> int:
    """Write ``+`` into the first blank outside a comment between two strings; return its offset."""
    in_comment = False
    for at in range(start, stop):
        char = text[at]
        if char == "#":
            in_comment = True
        elif char in "\r\n":
            in_comment = False
        elif char in " \t" and not in_comment:
            chars[at] = "+"
            return at
    raise _Unreadable  # `f"a"f"b"`: no room for an operator


def _string_start(text: str, at: int) -> bool:
    """Whether a string prefix (``rb``, ``f``...) starts at ``at`` (not the end of a longer name)."""
    if at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_"):
        return False
    end = at
    while end < len(text) and text[end] in _PREFIX_LETTERS and end - at < 2:
        end += 1
    return end < len(text) and text[end] in "\"'"


def _scan_string(text: str, at: int, chars: list[str], done: Rewrite) -> int:
    start = at
    while text[at] not in "\"'":
        at += 1
    prefix = text[start:at].lower()
    quote = text[at] * 3 if text[at : at + 3] in ('"""', "'''") else text[at]
    body = at + len(quote)
    if "f" not in prefix:
        at = body
        while not text.startswith(quote, at):
            if text[at] == "\\":
                at += 1
            elif len(quote) == 1 and text[at] in "\r\n":
                raise _Unreadable
            at += 1
        return at + len(quote)
    span = FStringSpan(start, 0)
    raw = "r" in prefix
    at = _scan_fstring_body(text, body, quote, raw, chars, done, span.parts)
    end = at + len(quote)
    span.end = end
    fields = [part for part in span.parts if isinstance(part, _Field)]
    kept = [(part.start, part.end) for part in fields]
    for index in range(start, end):
        if chars[index] not in "\r\n" and not any(low <= index < high for low, high in kept):
            chars[index] = " "
    chars[start] = "F"
    chars[body - 1] = "("
    chars[end - 1] = ")"
    for part in fields:
        chars[part.start - 1] = "("
        chars[part.close] = ")"
    done.spans.append(span)
    return end


def _scan_fstring_body(
    text: str, at: int, quote: str, raw: bool, chars: list[str], done: Rewrite, parts: list[str | _Field]
) -> int:
    """Scan an f-string's body from ``at``; return the offset of its closing quote."""
    literal: list[str] = []
    while not text.startswith(quote, at):
        char = text[at]
        if char == "\\" and not raw:
            literal.append(text[at : at + 2])
            at += 2
            continue
        if len(quote) == 1 and char in "\r\n":
            raise _Unreadable
        if char in "{}" and text[at + 1 : at + 2] == char:
            literal.append(char)
            at += 2
            continue
        if char == "{":
            if literal:
                parts.append("".join(literal))
                literal = []
            at = _scan_field(text, at + 1, chars, done, parts)
            continue
        literal.append(char)
        at += 1
    if literal:
        parts.append("".join(literal))
    return at


def _scan_field(text: str, at: int, chars: list[str], done: Rewrite, parts: list[str | _Field]) -> int:
    """Scan one replacement field from its expression's start; return the offset after its ``}``."""
    start = at
    end = _scan_code(text, at, len(text), chars, done, closing="}")
    found = _Field(start)
    at = end
    if text[at] == "=":
        at += 1
        while text[at] in " \t":
            at += 1
    if text[at] == "!":
        found.conversion = ord(text[at + 1])
        at += 2
    if text[at] == ":":
        spec_start = at + 1
        depth = 0
        at = spec_start
        while depth or text[at] != "}":
            if text[at] == "{":
                depth += 1
            elif text[at] == "}":
                depth -= 1
            at += 1
        found.spec = text[spec_start:at]
    if text[at] != "}":
        raise _Unreadable
    found.end, found.close = end, at
    parts.append(found)
    return at + 1


def restore(tree: ast.Module, done: Rewrite, text: str) -> ast.Module:
    """Put a ``JoinedStr`` back in place of each call :func:`rewrite` made, and join what its ``+`` split
    (see the module docs)."""
    if not done.spans:
        return tree
    offsets = _line_offsets(text)
    joins = [_position(text, offsets, at) for at in done.joins]
    restorer = _Restorer({span.start: span for span in done.spans}, offsets, joins)
    return restorer.visit(tree)  # type: ignore[no-any-return]


def _position(text: str, offsets: list[int], at: int) -> tuple[int, int]:
    """The ``(line, column)`` of offset ``at`` as ``ast`` counts it (columns in UTF-8 bytes)."""
    line = bisect.bisect_right(offsets, at)
    return line, len(text[offsets[line - 1] : at].encode("utf-8"))


class _Restorer(ast.NodeTransformer):
    """Bottom-up, so an f-string nested in another's field is restored before the outer one."""

    def __init__(self, by_start: dict[int, FStringSpan], offsets: list[int], joins: list[tuple[int, int]]) -> None:
        self.by_start = by_start
        self.offsets = offsets
        self.joins = joins

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        return _joined(node, self.by_start, self.offsets) or node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        left, right = node.left, node.right
        if not (isinstance(node.op, ast.Add) and _text_piece(left) and _text_piece(right)):
            return node
        after = (left.end_lineno or 0, left.end_col_offset or 0)
        before = (right.lineno, right.col_offset)
        if not any(after <= join < before for join in self.joins):
            return node  # a `+` the file wrote itself
        values: list[ast.expr] = []
        for piece in (left, right):
            for value in piece.values if isinstance(piece, ast.JoinedStr) else [piece]:
                last = values[-1] if values else None
                if isinstance(value, ast.Constant) and isinstance(last, ast.Constant):
                    values[-1] = ast.copy_location(ast.Constant(value=last.value + value.value), last)
                else:
                    values.append(value)
        return ast.copy_location(ast.JoinedStr(values=values), node)


def _text_piece(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    for index, char in enumerate(text):
        if char == "\n" or (char == "\r" and text[index + 1 : index + 2] != "\n"):
            offsets.append(index + 1)
    return offsets


def _joined(node: object, by_start: dict[int, FStringSpan], offsets: list[int]) -> ast.JoinedStr | None:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "F"):
        return None
    start = offsets[node.lineno - 1] + node.col_offset
    span = by_start.get(start)
    if span is None:
        return None
    count = sum(isinstance(part, _Field) for part in span.parts)
    expressions = _chain(node.args[0], count) if node.args else []
    values: list[ast.expr] = []
    for part in span.parts:
        if isinstance(part, str):
            values.append(ast.Constant(value=part.replace("{{", "{").replace("}}", "}")))
        elif expressions:
            expression = expressions.pop(0)
            spec = None
            if part.spec is not None:
                spec = ast.copy_location(
                    ast.JoinedStr(values=[ast.copy_location(ast.Constant(value=part.spec), node)]), node
                )
            values.append(ast.FormattedValue(value=expression, conversion=part.conversion, format_spec=spec))
    joined = ast.JoinedStr(values=values)
    ast.copy_location(joined, node)
    for value in values:
        ast.copy_location(value, node)
    return joined


def _chain(node: ast.expr, count: int) -> list[ast.expr]:
    """The ``count`` fields of ``(e1)(e2)(e3)``, which parses as ``Call(Call(e1, [e2]), [e3])``."""
    found: list[ast.expr] = []
    for _ in range(count - 1):
        if not (isinstance(node, ast.Call) and len(node.args) == 1):
            break
        found.append(node.args[0])
        node = node.func
    found.append(node)
    return list(reversed(found))
