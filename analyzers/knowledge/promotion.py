"""JAX's dtype promotion lattice with weak types, in 32-bit mode (``jax_enable_x64`` off).

A result dtype is the least upper bound of the operands in JAX's promotion lattice, where a
weakly typed operand (a Python scalar, or a value derived only from Python scalars) stands
for its kind (``int``, ``float``, ``complex``) rather than for its dtype. The lattice and the
final canonicalisation follow ``jax._src.dtypes``; ``tests/analyzers/test_promotion.py``
checks every pair of supported dtypes against ``jnp.result_type``.
"""

from __future__ import annotations

import functools

SUPPORTED_DTYPES: tuple[str, ...] = (
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "int8",
    "int16",
    "int32",
    "bfloat16",
    "float16",
    "float32",
    "complex64",
)
"""The dtypes the analyzer tracks; anything else makes a value unknown."""

_WEAK_KIND = {"i*": "int32", "f*": "float32", "c*": "complex64"}
"""The weak lattice nodes (Python int, float, complex) and the dtype they canonicalise to."""

_LATTICE: dict[str, tuple[str, ...]] = {
    "bool": ("i*",),
    "uint8": ("int16", "uint16"),
    "uint16": ("int32", "uint32"),
    "uint32": ("int64", "uint64"),
    "uint64": ("f*",),
    "i*": ("uint8", "int8"),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": ("f*",),
    "f*": ("float16", "bfloat16", "c*"),
    "float16": ("float32",),
    "bfloat16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    "c*": ("complex64",),
    "complex64": ("complex128",),
    "complex128": (),
}
"""Edges of JAX's type promotion lattice (each node lists its immediate successors)."""

_X64_DOWNCAST = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}


@functools.cache
def _upper_set(node: str) -> frozenset[str]:
    """Every node reachable from ``node``, itself included."""
    found = {node}
    for successor in _LATTICE[node]:
        found |= _upper_set(successor)
    return frozenset(found)


def _least_upper_bound(nodes: set[str]) -> str:
    common = frozenset.intersection(*(_upper_set(n) for n in nodes))
    # The least element of the common upper bounds is the one below all the others.
    return next(n for n in common if all(other in _upper_set(n) for other in common))


def _lattice_node(dtype: str, weak: bool) -> str:
    if not weak or dtype == "bool":
        return dtype
    if dtype.startswith("complex"):
        return "c*"
    if dtype.startswith(("float", "bfloat")):
        return "f*"
    return "i*"


def result_type(*operands: tuple[str, bool]) -> tuple[str, bool]:
    """The dtype and weak type of an elementwise operation on ``(dtype, weak_type)`` operands.

    Examples:
        >>> result_type(("int32", False), ("float32", True))  # jnp.int32(1) + 1.0 is ~float32[]
        ('float32', True)
        >>> result_type(("float16", False), ("float32", True))
        ('float16', False)
        >>> result_type(("int32", True), ("float32", True))
        ('float32', True)
    """
    dtypes = {d for d, _ in operands}
    if len(operands) == 1:
        return operands[0]
    if len(dtypes) == 1 and not all(w for _, w in operands):
        return dtypes.pop(), False
    if all(w for _, w in operands):
        # All weak: promote the strong counterparts and keep the result weak.
        out = _least_upper_bound(dtypes)
        return _X64_DOWNCAST.get(out, out), True
    out = _least_upper_bound({_lattice_node(d, w) for d, w in operands})
    if out in _WEAK_KIND:
        return _WEAK_KIND[out], True
    return _X64_DOWNCAST.get(out, out), False


def is_inexact(dtype: str) -> bool:
    """Whether ``dtype`` is a floating or complex dtype."""
    return dtype.startswith(("float", "bfloat", "complex"))
