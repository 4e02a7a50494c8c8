"""Typed input fields for calculators: each parses the text a user typed and formats a value back.

The same text form travels everywhere: in a URL query string (``?array=1000,512``), on the command
line (``--array 1000,512``), in the live page's form and in a language-server hover link. A field
that rejects its text raises :class:`CalculatorInputError` naming itself, so every front end can put
the message next to the right input.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

FieldKind = Literal["int", "float", "ints", "choice", "text", "bool"]


class CalculatorInputError(ValueError):
    """A calculator input that cannot be used, with the name of the field it came from.

    Examples:
        >>> str(CalculatorInputError("block", "must be positive"))
        'block: must be positive'
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


@dataclass(frozen=True)
class Field:
    """One input of a calculator.

    Attributes:
        name: The name in URLs, on the command line and in JSON (``index-map``); the dataclass
            attribute it fills is the same name with ``_`` for ``-``.
        kind: How the text is read: ``int``, ``float``, ``ints`` (comma-separated integers),
            ``choice`` (one of ``choices``), ``bool`` or ``text`` (read by ``parser``).
        label: A short human label for forms and tables.
        help: One sentence on what the field means, with its unit.
        default: The text used when the field is not given; ``None`` makes the field required.
        choices: The allowed values of a ``choice`` field.
        minimum: The smallest allowed number (for ``int``, ``float`` and each of ``ints``).
        parser: For ``text`` fields, turns the text into a value, raising ``ValueError`` on bad text.
        formatter: Turns a value back into text (defaults per kind).
        placeholder: An example of valid text, shown in empty form fields.
        optional: Empty text means "not given" and parses to ``None`` (for ``int`` and ``ints``
            fields whose absence has a meaning, such as "the grid that covers the array").
        multiline: The text may span lines (shown as a text area across the whole form).
    """

    name: str
    kind: FieldKind
    label: str
    help: str
    default: str | None = None
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    parser: Callable[[str], Any] | None = field(default=None, compare=False)
    formatter: Callable[[Any], str] | None = field(default=None, compare=False)
    placeholder: str = ""
    optional: bool = False
    multiline: bool = False

    @property
    def attribute(self) -> str:
        """The dataclass attribute this field fills."""
        return self.name.replace("-", "_")

    def parse(self, text: str) -> Any:
        """Read the user's text.

        Examples:
            >>> Field("block", "ints", "Block", "block shape").parse(" 128, 256 ")
            (128, 256)
            >>> Field("grid", "ints", "Grid", "grid", minimum=1).parse("8,0")
            Traceback (most recent call last):
            ...
            xlalens.explainers.calculators.fields.CalculatorInputError: grid: 0 is below the minimum 1
            >>> print(Field("grid", "ints", "Grid", "grid", default="", optional=True).parse(""))
            None
        """
        stripped = text.strip()
        try:
            value = self._read(stripped)
        except CalculatorInputError:
            raise
        except (ValueError, TypeError, OverflowError) as error:
            raise CalculatorInputError(self.name, str(error) or f"cannot read {stripped!r}") from None
        self._check_minimum(value)
        return value

    def format(self, value: Any) -> str:
        """Write a value as the text :meth:`parse` reads back.

        Examples:
            >>> Field("array", "ints", "Array", "array shape").format((1000, 512))
            '1000,512'
            >>> Field("buffered", "bool", "Buffered", "double buffering").format(True)
            'true'
            >>> Field("block", "text", "Block", "block shape", formatter=repr).format("192,128")
            '192,128'
        """
        if value is None and self.optional:
            return ""
        if self.kind == "text" and isinstance(value, str):
            return value  # already the field's text (a query string, a value a rule read as text)
        if self.formatter is not None:
            return self.formatter(value)
        if self.kind == "ints":
            return ",".join(str(int(item)) for item in value)
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "float":
            return repr(float(value))
        return str(value)

    def _read(self, text: str) -> Any:
        if self.kind == "text":
            if self.parser is None:
                return text
            return self.parser(text)
        if not text:
            if self.optional:
                return None
            raise CalculatorInputError(self.name, "is empty")
        if self.kind == "int":
            return _read_int(text)
        if self.kind == "float":
            number = float(text)
            if not math.isfinite(number):
                raise ValueError(f"{text!r} is not a finite number")
            return number
        if self.kind == "ints":
            parts = [part.strip() for part in text.strip("()[]").split(",")]
            if parts and parts[-1] == "":
                parts.pop()  # a trailing comma, as in the Python tuple (8,)
            if not parts or any(not part for part in parts):
                raise ValueError(f"expected comma-separated integers such as 8,128; got {text!r}")
            return tuple(_read_int(part) for part in parts)
        if self.kind == "choice":
            if text not in self.choices:
                raise ValueError(f"{text!r} is not one of {', '.join(self.choices)}")
            return text
        if self.kind == "bool":
            lowered = text.lower()
            if lowered in _TRUE:
                return True
            if lowered in _FALSE:
                return False
            raise ValueError(f"expected true or false; got {text!r}")
        raise AssertionError(f"unknown field kind {self.kind!r}")

    def _check_minimum(self, value: Any) -> None:
        if self.minimum is None or value is None or self.kind not in ("int", "float", "ints"):
            return
        numbers: Sequence[float] = value if self.kind == "ints" else (value,)
        for number in numbers:
            if number < self.minimum:
                minimum = int(self.minimum) if float(self.minimum).is_integer() else self.minimum
                raise CalculatorInputError(self.name, f"{number} is below the minimum {minimum}")

    def describe(self) -> dict[str, Any]:
        """The field as JSON for forms and ``--help``."""
        return {
            "name": self.name,
            "kind": self.kind,
            "label": self.label,
            "help": self.help,
            "default": self.default,
            "choices": list(self.choices),
            "minimum": self.minimum,
            "placeholder": self.placeholder,
            "optional": self.optional,
            "multiline": self.multiline,
        }


def _read_int(text: str) -> int:
    text = text.strip().replace("_", "")
    if len(text) > 30:
        raise ValueError(f"{text[:30]}… is too long to be an integer")
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not an integer") from None
