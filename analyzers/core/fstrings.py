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
    >>> rewritten, spans = rewrite(text)
    >>> rewritten
    'print(F((d["key"]  )     (n + 1)))\\n'
    >>> tree = restore(__import__("ast").parse(rewritten), spans, text)
    >>> call = tree.body[0].value.args[0]
    >>> type(call).__name__, [type(v).__name__ for v in call.values], call.values[0].conversion
    ('JoinedStr', ['FormattedValue', 'Constant', 'FormattedValue'], 114)
"""

from __future__ import annotations

import ast
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


class _Unreadable(Exception):
    """The text is not something this scanner reads (an unterminated string, for instance)."""


def rewrite(text: str) -> tuple[str, list[FStringSpan]]:
    """``text`` with every f-string made a same-length call of its fields.

    ``(text, [])`` when it has none or cannot be read.
    """
    chars = list(text)
    spans: list[FStringSpan] = []
    try:
        _scan_code(text, 0, len(text), chars, spans, closing=None)
    except (_Unreadable, IndexError):
        return text, []
    if not spans:
        return text, []
    return "".join(chars), spans


def _scan_code(text: str, at: int, stop: int, chars: list[str], spans: list[FStringSpan], closing: str | None) -> int:
    """Scan code from ``at``; inside a field, return where the field's expression ends (``}``, ``!``, ``:``, ``=``)."""
    depth = 0
    while at < stop:
        char = text[at]
        if char == "#":
            while at < stop and text[at] not in "\r\n":
                at += 1
            continue
        if char in "\"'" or (char in _PREFIX_LETTERS and _string_start(text, at)):
            at = _scan_string(text, at, chars, spans)
            continue
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


def _string_start(text: str, at: int) -> bool:
    """Whether a string prefix (``rb``, ``f``...) starts at ``at`` (not the end of a longer name)."""
    if at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_"):
        return False
    end = at
    while end < len(text) and text[end] in _PREFIX_LETTERS and end - at < 2:
        end += 1
    return end < len(text) and text[end] in "\"'"


def _scan_string(text: str, at: int, chars: list[str], spans: list[FStringSpan]) -> int:
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
    at = _scan_fstring_body(text, body, quote, raw, chars, spans, span.parts)
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
    spans.append(span)
    return end


def _scan_fstring_body(
    text: str, at: int, quote: str, raw: bool, chars: list[str], spans: list[FStringSpan], parts: list[str | _Field]
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
            at = _scan_field(text, at + 1, chars, spans, parts)
            continue
        literal.append(char)
        at += 1
    if literal:
        parts.append("".join(literal))
    return at


def _scan_field(text: str, at: int, chars: list[str], spans: list[FStringSpan], parts: list[str | _Field]) -> int:
    """Scan one replacement field from its expression's start; return the offset after its ``}``."""
    start = at
    end = _scan_code(text, at, len(text), chars, spans, closing="}")
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


def restore(tree: ast.Module, spans: list[FStringSpan], text: str) -> ast.Module:
    """Put a ``JoinedStr`` back in place of each call :func:`rewrite` made (see the module docs)."""
    if not spans:
        return tree
    restorer = _Restorer({span.start: span for span in spans}, _line_offsets(text))
    return restorer.visit(tree)  # type: ignore[no-any-return]


class _Restorer(ast.NodeTransformer):
    """Bottom-up, so an f-string nested in another's field is restored before the outer one."""

    def __init__(self, by_start: dict[int, FStringSpan], offsets: list[int]) -> None:
        self.by_start = by_start
        self.offsets = offsets

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        return _joined(node, self.by_start, self.offsets) or node


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
