"""The calculator registry: a name -> the calculator, its fields and the function that computes.

A calculator is a pure function over a frozen dataclass of inputs. The registry adds what every
front end needs around it: reading inputs from text (URL query, command line, form), checking them
field by field, and turning values found in code back into text for prefilled links.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from xlalens.explainers.calculators.fields import CalculatorInputError, Field
from xlalens.explainers.calculators.svg import Picture

Status = Literal["ok", "warning", "error"]


@dataclass(frozen=True)
class Row:
    """One line of a result table: a named quantity, its value and how it was obtained.

    Attributes:
        label: What the number is (``"grid"``, ``"VMEM per step"``).
        value: The value, formatted with its unit.
        formula: The formula with the user's numbers substituted, if it helps to see it.
        key: One of the few rows a hover shows (the live calculator shows every row).
    """

    label: str
    value: str
    formula: str = ""
    key: bool = False


class CalculatorResult(Protocol):
    """What every calculator returns: a frozen dataclass plus these three views of it."""

    @property
    def status(self) -> Status:
        """``ok`` when nothing is wrong, ``warning`` when it works but wastes, ``error`` when it fails."""
        ...

    @property
    def headline(self) -> str:
        """One sentence with the numbers that matter, e.g. for a hover's first line."""
        ...

    def rows(self) -> tuple[Row, ...]:
        """The intermediate numbers of the formula, in reading order."""
        ...


InputsT = TypeVar("InputsT")
ResultT = TypeVar("ResultT", bound=CalculatorResult)


@dataclass(frozen=True)
class Calculator(Generic[InputsT, ResultT]):
    """A registered calculator.

    Attributes:
        name: The registry name, used in URLs and on the command line (``shard-shape``).
        title: A human title for pages and tables.
        summary: One sentence on what it computes.
        explainer: The ``page#section`` that teaches the mechanism, or ``None`` while no page exists.
        inputs: The frozen dataclass of inputs; its ``__post_init__`` may raise
            :class:`CalculatorInputError` for inputs that only fail together.
        fields: One :class:`Field` per dataclass attribute, in form order.
        compute: The pure function from inputs to result.
        examples: Query mappings that make good starting points (the first is the page's default).
        picture: Draws a result as an exhibit (SVG and its text equivalent), or ``None`` when the
            calculator has no picture or a result has nothing to draw.
    """

    name: str
    title: str
    summary: str
    explainer: str | None
    inputs: type[InputsT]
    fields: tuple[Field, ...]
    compute: Callable[[InputsT], ResultT]
    examples: tuple[Mapping[str, str], ...] = ()
    picture: Callable[[Any], Picture | None] | None = None

    def draw(self, result: ResultT) -> Picture | None:
        """The result's exhibit, if the calculator draws one."""
        return self.picture(result) if self.picture is not None else None

    def field(self, name: str) -> Field:
        """The field called ``name`` (``-`` or ``_`` spelling)."""
        wanted = name.replace("_", "-")
        for candidate in self.fields:
            if candidate.name.replace("_", "-") == wanted:
                return candidate
        raise CalculatorInputError(name, f"unknown field; {self.name} takes {', '.join(f.name for f in self.fields)}")

    def parse(self, raw: Mapping[str, str]) -> InputsT:
        """Build the inputs from text, one field at a time.

        Raises:
            CalculatorInputError: naming the first field that is unknown, missing or invalid.
        """
        given = {}
        for key, text in raw.items():
            given[self.field(key).name] = text
        values: dict[str, Any] = {}
        for spec in self.fields:
            text = given.get(spec.name, spec.default)
            if text is None:
                raise CalculatorInputError(spec.name, "is required")
            values[spec.attribute] = spec.parse(text)
        try:
            return self.inputs(**values)
        except CalculatorInputError:
            raise
        except (ValueError, TypeError) as error:
            raise CalculatorInputError(self.fields[0].name, str(error)) from None

    def run(self, raw: Mapping[str, str]) -> ResultT:
        """Parse text inputs and compute."""
        return self.compute(self.parse(raw))

    def query(self, values: Mapping[str, Any] | InputsT) -> dict[str, str]:
        """Text for each field from values found in code (a mapping or an inputs object).

        Values that are not given are left out, so the page falls back to the field's default.
        """
        if dataclasses.is_dataclass(values) and not isinstance(values, type):
            values = {spec.name: getattr(values, spec.attribute) for spec in self.fields}
        assert isinstance(values, Mapping)
        query: dict[str, str] = {}
        for key, value in values.items():
            if value is None:
                continue
            spec = self.field(key)
            query[spec.name] = spec.format(value)
        return query

    def describe(self) -> dict[str, Any]:
        """The calculator's schema as JSON: what the live page builds its form from."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "explainer": self.explainer,
            "fields": [spec.describe() for spec in self.fields],
            "examples": [dict(example) for example in self.examples],
        }


def result_json(result: CalculatorResult, picture: Picture | None = None) -> dict[str, Any]:
    """A result as JSON: its status, headline, table rows, every field of the dataclass, and its picture."""
    assert dataclasses.is_dataclass(result) and not isinstance(result, type)
    payload = {
        "status": result.status,
        "headline": result.headline,
        "rows": [dataclasses.asdict(row) for row in result.rows()],
        "values": _jsonable(dataclasses.asdict(result)),
    }
    if picture is not None:
        payload["picture"] = {"svg": picture.svg, "text": picture.text}
    return payload


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    if isinstance(value, float) and value != value:  # NaN is not JSON
        return None
    return value


class UnknownCalculatorError(KeyError):
    """A calculator name that is not registered; the message lists the known ones."""

    def __str__(self) -> str:
        return str(self.args[0])


_CALCULATORS: dict[str, Calculator[Any, Any]] = {}
_BUILTIN_MODULES = (
    "retrace",
    "shard_shape",
    "blockspec",
    "roofline",
    "sync_cost",
    "carry_check",
    "pytree",
    "vmap_axes",
    "reshard",
    "remat",
    "pipeline",
    "graph_hash",
    "transform_stack",
)
_loaded = False


def register_calculator(calculator: Calculator[Any, Any]) -> Calculator[Any, Any]:
    """Add a calculator; its name must be new and its fields must match its inputs dataclass."""
    if calculator.name in _CALCULATORS:
        raise ValueError(f"calculator {calculator.name!r} is already registered")
    attributes = {f.name for f in dataclasses.fields(calculator.inputs)}  # type: ignore[arg-type]
    declared = {spec.attribute for spec in calculator.fields}
    if attributes != declared:
        raise ValueError(
            f"calculator {calculator.name!r}: fields {sorted(declared)} do not match "
            f"{calculator.inputs.__name__} attributes {sorted(attributes)}"
        )
    _CALCULATORS[calculator.name] = calculator
    return calculator


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in _BUILTIN_MODULES:
            importlib.import_module(f"xlalens.explainers.calculators.{module}")


def get_calculator(name: str) -> Calculator[Any, Any]:
    """The calculator called ``name``.

    Raises:
        UnknownCalculatorError: listing the registered names.
    """
    _load_builtins()
    try:
        return _CALCULATORS[name]
    except KeyError:
        known = ", ".join(sorted(_CALCULATORS))
        raise UnknownCalculatorError(f"unknown calculator {name!r}; known calculators: {known}") from None


def all_calculators() -> Iterable[Calculator[Any, Any]]:
    """Every registered calculator, by name."""
    _load_builtins()
    return [_CALCULATORS[name] for name in sorted(_CALCULATORS)]
