"""Hints that cover a span of code and may carry a calculator's inputs: the registry of their providers.

A provider looks at one module (its index, interpreter and text) and returns :class:`SpanHint`
values: a short label shown as an inlay hint at ``position`` (a Pallas grid's step count, a loop
carry's type, an array's per-device shard shape), and, when every number is known, the inputs of
the calculator that explains it. The language server shows the label as an inlay hint and, on a
hover anywhere inside ``span``, that calculator's table; ``xlalens annotate`` prints the label
inline. Providers register with :func:`register_hint_provider`; :func:`span_hints` runs them all.

Examples:
    >>> "pallas" in hint_providers()
    True
"""

from __future__ import annotations

import importlib
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
# Modules whose import registers a built-in provider.
_BUILTIN_MODULES: tuple[str, ...] = (
    "xlalens.analyzers.models.pallas.hints",
    "xlalens.analyzers.models.tracing.hints",
    "xlalens.analyzers.models.sharding.hints",
    "xlalens.analyzers.models.torch_xla.hints",
)
_loaded = False


def register_hint_provider(name: str, provider: HintProvider) -> HintProvider:
    """Add ``provider`` under ``name``.

    Raises:
        ValueError: if another provider has that name (the message lists the known names).
    """
    _load_builtin_providers()
    existing = _PROVIDERS.get(name)
    if existing is not None and existing is not provider:
        raise ValueError(
            f"hint provider {name!r} is already registered; known providers: {', '.join(sorted(_PROVIDERS))}"
        )
    _PROVIDERS[name] = provider
    return provider


def hint_providers() -> dict[str, HintProvider]:
    """Every registered provider by name, the built-in ones included."""
    _load_builtin_providers()
    return dict(_PROVIDERS)


def _load_builtin_providers() -> None:
    global _loaded
    if _loaded:
        return
    # Set first: a built-in module registers itself while it is being imported here.
    _loaded = True
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)


def span_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> list[SpanHint]:
    """The hints of every provider for one module, in source order."""
    found = [hint for provider in hint_providers().values() for hint in provider(index, interpreter, text)]
    return sorted(found, key=lambda hint: hint.position)
