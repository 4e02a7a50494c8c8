"""Where array-making calls take their shape, for sizing arrays built once at module level.

Module-level tables are built by random generators (``np.random.default_rng(0).normal(size=...)``,
``jax.random.normal(key, shape)``), ranges (``np.arange(n).reshape(...)``) and elementwise functions
of those (``np.triu``, ``np.tanh``). Each entry says where the shape is and the dtype the result has
without a ``dtype`` argument.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ShapeSource:
    """Where a call's shape is.

    Attributes:
        position: The positional argument holding the shape (``None``: keyword only).
        keyword: The keyword holding the shape.
        dtype: The result's dtype when no ``dtype`` is given.
        dims_as_arguments: The shape is spelled as separate arguments (``np.random.rand(3, 4)``).
    """

    position: int | None
    keyword: str
    dtype: str
    dims_as_arguments: bool = False


_FUNCTIONS: dict[str, ShapeSource] = {}
_GENERATOR_METHODS: dict[str, ShapeSource] = {}

SHAPE_PRESERVING = frozenset(
    {
        *(f"numpy.{name}" for name in ("triu", "tril", "tanh", "sqrt", "exp", "log", "sin", "cos", "abs", "asarray")),
        *(f"jax.numpy.{name}" for name in ("triu", "tril", "tanh", "sqrt", "exp", "log", "sin", "cos", "abs")),
        "jax.numpy.asarray",
        "jax.device_put",
    }
)
"""Functions whose result has their first argument's shape and dtype."""


def _register(table: dict[str, ShapeSource], name: str, source: ShapeSource) -> None:
    existing = table.get(name)
    if existing is not None and existing != source:
        raise ValueError(f"{name} is already registered as {existing}; known: {', '.join(sorted(table))}")
    table[name] = source


def register_shaped_function(qualname: str, source: ShapeSource) -> None:
    """Record where ``qualname`` takes its shape.

    Raises:
        ValueError: if ``qualname`` is already registered differently.
    """
    _register(_FUNCTIONS, qualname, source)


def register_generator_method(name: str, source: ShapeSource) -> None:
    """Record where a ``numpy.random.Generator`` method (``rng.normal``) takes its shape.

    Raises:
        ValueError: if ``name`` is already registered differently.
    """
    _register(_GENERATOR_METHODS, name, source)


def shaped_function(qualname: str | None) -> ShapeSource | None:
    """Where ``qualname`` takes its shape.

    Examples:
        >>> shaped_function("jax.random.normal").position, shaped_function("numpy.random.rand").dims_as_arguments
        (1, True)
    """
    return _FUNCTIONS.get(qualname or "")


def generator_method(name: str) -> ShapeSource | None:
    """Where the ``numpy.random.Generator`` method ``name`` takes its shape.

    Examples:
        >>> generator_method("normal").keyword, generator_method("integers").dtype
        ('size', 'int64')
    """
    return _GENERATOR_METHODS.get(name)


def _register_all() -> None:
    for name in ("rand", "randn"):
        register_shaped_function(f"numpy.random.{name}", ShapeSource(0, "", "float64", dims_as_arguments=True))
    for name in ("random", "random_sample", "standard_normal"):
        register_shaped_function(f"numpy.random.{name}", ShapeSource(0, "size", "float64"))
    for name in ("normal", "uniform"):
        register_shaped_function(f"numpy.random.{name}", ShapeSource(2, "size", "float64"))
        register_generator_method(name, ShapeSource(2, "size", "float64"))
    for name in ("random", "standard_normal"):
        register_generator_method(name, ShapeSource(0, "size", "float64"))
    register_generator_method("integers", ShapeSource(None, "size", "int64"))
    for name in ("normal", "uniform", "gumbel", "laplace"):
        register_shaped_function(f"jax.random.{name}", ShapeSource(1, "shape", "float32"))
    register_shaped_function("jax.random.truncated_normal", ShapeSource(3, "shape", "float32"))
    register_shaped_function("jax.random.bernoulli", ShapeSource(2, "shape", "bool"))


_register_all()
