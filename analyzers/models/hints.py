"""Hints that cover a span of code and may carry a calculator's inputs: the registry of their providers.

A provider looks at one module (its index, interpreter and text) and returns :class:`SpanHint`
values: a short label shown as an inlay hint at ``position`` (a Pallas grid's step count, a loop
carry's type, an array's per-device shard shape), and, when every number is known, the inputs of
the calculator that explains it. The language server shows the label as an inlay hint and, on a
hover anywhere inside ``span``, that calculator's table; ``xlalens annotate`` prints the label
inline. Each domain's hint module registers its provider with :func:`register_hint_provider` when
it is imported; :func:`xlalens.analyzers.annotate.span_hints` imports the built-in ones and runs them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xlalens.analyzers.core.diagnostics import Position, Range

if TYPE_CHECKING:
    from xlalens.analyzers.core.source import SourceText
    from xlalens.analyzers.semantics.interpreter import Interpreter
    from xlalens.analyzers.semantics.names import ModuleIndex


@dataclass(frozen=True, slots=True)
class SpanHint:
    """A hint about one construct of the code.

    Attributes:
        position: Where the label goes.
        target: What it describes, for tools and tests (``grid``, ``block``, ``carry``, ``shard``).
        label: The short text shown inline (``6 steps``, ``origin (192·i, 0)``).
        description: The long form, for tooltips and hovers.
        span: The source a hover on it covers (the call or spec it describes).
        calculator: The name of the calculator whose table a hover shows, if any.
        inputs: That calculator's inputs (JSON-friendly values), when every number is known.
    """

    position: Position
    target: str
    label: str
    description: str
    span: Range
    calculator: str | None = None
    inputs: Mapping[str, object] | None = None


HintProvider = Callable[["ModuleIndex", "Interpreter", "SourceText"], list[SpanHint]]
"""Computes the hints of one module."""

_PROVIDERS: dict[str, HintProvider] = {}


def register_hint_provider(name: str, provider: HintProvider) -> HintProvider:
    """Add ``provider`` under ``name``.

    Raises:
        ValueError: if another provider has that name (the message lists the known names).
    """
    existing = _PROVIDERS.get(name)
    if existing is not None and existing is not provider:
        raise ValueError(
            f"hint provider {name!r} is already registered; known providers: {', '.join(sorted(_PROVIDERS))}"
        )
    _PROVIDERS[name] = provider
    return provider


def hint_providers() -> dict[str, HintProvider]:
    """Every provider registered so far, by name (the built-in ones register when their module is imported)."""
    return dict(_PROVIDERS)
