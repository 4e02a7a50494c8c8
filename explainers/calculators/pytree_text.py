"""Reading pytree types written as text: shapes, tuples, lists and dicts.

Calculators whose fields hold abstract values (``retrace``'s call arguments, ``carry-check``'s
carry types) share this recursive descent and the :class:`Container` it builds. A subclass decides
what a leaf is (:meth:`PytreeTextParser.parse_value`).

Examples:
    >>> class Dims(PytreeTextParser):
    ...     def parse_value(self, depth):
    ...         self.pos += 1  # past '['
    ...         return self.parse_dims()
    >>> Dims("[8, 128]").parse_value(0)
    (8, 128)
    >>> Dims("[8; 128]").parse_value(0)
    Traceback (most recent call last):
    ...
    ValueError: expected ',' or ']' in the shape at '; 128]'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from xlalens.explainers.calculators.limits import MAX_DIM, MAX_RANK

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DTYPE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_INT = re.compile(r"[0-9][0-9_]*")

ContainerKind = Literal["tuple", "list", "dict", "None"]


@dataclass(frozen=True)
class Container:
    """A pytree container: a tuple, list, dict (keys sorted, the order JAX flattens them in) or ``None``.

    Examples:
        >>> str(Container("dict", ("1", "a"), ("x", "y")))
        "{'x': 1, 'y': a}"
        >>> str(Container("tuple", ("f32[3]",))), str(Container("list")), str(Container("None"))
        ('(f32[3],)', '[]', 'None')
    """

    kind: ContainerKind
    children: tuple[Any, ...] = ()
    keys: tuple[str, ...] = ()

    def key_text(self, key: str) -> str:
        """How a dict key is written (quoted, as Python writes it)."""
        return repr(key)

    def __str__(self) -> str:
        if self.kind == "None":
            return "None"
        if self.kind == "dict":
            pairs = zip(self.keys, self.children, strict=True)
            return "{" + ", ".join(f"{self.key_text(key)}: {child}" for key, child in pairs) + "}"
        inner = ", ".join(str(child) for child in self.children)
        if self.kind == "tuple":
            return f"({inner},)" if len(self.children) == 1 else f"({inner})"
        return f"[{inner}]"


class PytreeTextParser:
    """Position, errors and the container grammar over one text.

    Args:
        text: The text to read.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def parse_value(self, depth: int) -> Any:
        """Read one value at nesting ``depth``; subclasses define what values are."""
        raise NotImplementedError

    def shape_owner(self) -> str:
        """What a shape belongs to, for messages (``" of x"``); empty when there is nothing to name."""
        return ""

    def error_prefix(self) -> str:
        """Text put before every message (``"call 2: "``)."""
        return ""

    def skip(self, extra: str = "") -> None:
        """Move past whitespace and the characters of ``extra``."""
        while self.pos < len(self.text) and (self.text[self.pos].isspace() or self.text[self.pos] in extra):
            self.pos += 1

    def error(self, message: str) -> ValueError:
        """``message`` with where it happened (the next 20 characters, or the end of the text)."""
        where = (
            "at the end of the text" if self.pos >= len(self.text) else f"at {self.text[self.pos : self.pos + 20]!r}"
        )
        return ValueError(f"{self.error_prefix()}{message} {where}")

    def expect_name(self, what: str) -> str:
        """Read a Python-style name, or fail saying ``what`` was expected."""
        match = NAME.match(self.text, self.pos)
        if not match:
            raise self.error(f"expected {what}")
        self.pos = match.end()
        return match.group()

    def parse_dims(self) -> tuple[int, ...]:
        """Read the dimensions after a shape's ``[`` up to and including its ``]``."""
        owner = self.shape_owner()
        dims: list[int] = []
        while True:
            self.skip()
            if self.text.startswith("]", self.pos) and not dims:
                self.pos += 1
                break
            digits = _INT.match(self.text, self.pos)
            if not digits:
                raise self.error(f"expected a dimension (an integer >= 0) in the shape{owner}")
            if len(digits.group()) > 20 or int(digits.group().replace("_", "")) >= MAX_DIM:
                raise self.error(f"dimension {digits.group()[:24]} is not below 2**62")
            dims.append(int(digits.group().replace("_", "")))
            self.pos = digits.end()
            self.skip()
            if self.text.startswith(",", self.pos):
                self.pos += 1
            elif self.text.startswith("]", self.pos):
                self.pos += 1
                break
            else:
                raise self.error(f"expected ',' or ']' in the shape{owner}")
        if len(dims) > MAX_RANK:
            raise self.error(f"rank {len(dims)} is above the supported {MAX_RANK}")
        return tuple(dims)

    def parse_items(self, depth: int) -> tuple[list[Any], bool]:
        """Read a tuple's or list's children after its opening bracket; also whether a comma was seen."""
        closing = ")" if self.text[self.pos] == "(" else "]"
        self.pos += 1
        children: list[Any] = []
        comma = False
        while True:
            self.skip()
            if self.text.startswith(closing, self.pos):
                self.pos += 1
                break
            children.append(self.parse_value(depth + 1))
            self.skip()
            if self.text.startswith(",", self.pos):
                comma = True
                self.pos += 1
            elif not self.text.startswith(closing, self.pos):
                raise self.error(f"expected ',' or '{closing}' in the {'tuple' if closing == ')' else 'list'}")
        return children, comma

    def parse_dict(self, depth: int) -> tuple[tuple[str, ...], tuple[Any, ...]]:
        """Read a dict after its ``{``: its keys sorted (the order JAX flattens them in) and their values."""
        self.pos += 1
        entries: dict[str, Any] = {}
        while True:
            self.skip()
            if self.text.startswith("}", self.pos):
                self.pos += 1
                break
            key = self.parse_key()
            self.skip()
            if not self.text.startswith(":", self.pos):
                raise self.error(f"expected ':' after the dict key {key!r}")
            self.pos += 1
            if key in entries:
                raise self.error(f"the dict key {key!r} appears twice")
            entries[key] = self.parse_value(depth + 1)
            self.skip()
            if self.text.startswith(",", self.pos):
                self.pos += 1
            elif not self.text.startswith("}", self.pos):
                raise self.error("expected ',' or '}' in the dict")
        keys = tuple(sorted(entries))
        return keys, tuple(entries[key] for key in keys)

    def parse_key(self) -> str:
        """A dict key: a quoted string or a bare name."""
        quote = self.text[self.pos : self.pos + 1]
        if quote in ("'", '"'):
            end = self.text.find(quote, self.pos + 1)
            if end < 0:
                raise self.error("a quoted dict key has no closing quote")
            key = self.text[self.pos + 1 : end]
            self.pos = end + 1
            return key
        return self.expect_name("a dict key (a name or a quoted string)")
