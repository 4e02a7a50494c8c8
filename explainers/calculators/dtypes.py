"""Everything xlalens knows about element types: names, sizes, promotion and the aval notation.

This is the one home of dtype facts for the calculators, the analyzer's interpreter, its rule
messages, hints and hovers:

* each dtype has the short name JAX prints in avals (``f32[8,128]``, ``bf16[4]``, ``i4[64]``), the
  long name used in code (``jnp.float32``), its bit width and kind; torch's spellings
  (``torch.half``, ``torch.long``) map onto the same table;
* :func:`x32` is the dtype JAX really uses with ``jax_enable_x64`` off (``float64`` -> ``float32``);
* :func:`result_type` is JAX's promotion lattice with weak types, checked pair by pair against
  ``jnp.result_type`` in ``tests/explainers/calculators/test_promotion.py``;
* :func:`aval` writes an array type the way JAX does (``f32[8,128]``, ``~i32[]`` for a weak type,
  ``float32[3]`` in JAX's long-name messages), with ``?`` for what is unknown.

Fields accept either spelling; results print the short one.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

DTypeKind = Literal["float", "int", "uint", "bool", "complex"]


@dataclass(frozen=True)
class DType:
    """One element type.

    Attributes:
        short: The name in JAX's aval notation (``f32``).
        name: The NumPy / ``jax.numpy`` name (``float32``).
        bits: Storage bits per element (``bool`` is stored as one byte).
        kind: ``float``, ``int``, ``uint`` or ``bool``.
    """

    short: str
    name: str
    bits: int
    kind: DTypeKind

    @property
    def itemsize(self) -> float:
        """Bytes per element; 0.5 for 4-bit types.

        Examples:
            >>> lookup("int4").itemsize
            0.5
        """
        return self.bits / 8

    def nbytes(self, elements: int) -> int:
        """Bytes for ``elements`` packed elements, rounded up to whole bytes.

        Examples:
            >>> lookup("bf16").nbytes(1000)
            2000
            >>> lookup("i4").nbytes(3)
            2
        """
        return -(-elements * self.bits // 8)


DTYPES: tuple[DType, ...] = (
    DType("f32", "float32", 32, "float"),
    DType("bf16", "bfloat16", 16, "float"),
    DType("f16", "float16", 16, "float"),
    DType("f64", "float64", 64, "float"),
    DType("f8_e4m3fn", "float8_e4m3fn", 8, "float"),
    DType("f8_e5m2", "float8_e5m2", 8, "float"),
    DType("i8", "int8", 8, "int"),
    DType("i16", "int16", 16, "int"),
    DType("i32", "int32", 32, "int"),
    DType("i64", "int64", 64, "int"),
    DType("i4", "int4", 4, "int"),
    DType("u8", "uint8", 8, "uint"),
    DType("u16", "uint16", 16, "uint"),
    DType("u32", "uint32", 32, "uint"),
    DType("u64", "uint64", 64, "uint"),
    DType("c64", "complex64", 64, "complex"),
    DType("c128", "complex128", 128, "complex"),
    DType("bool", "bool", 8, "bool"),
)

_BY_NAME: dict[str, DType] = {}
for _dtype in DTYPES:
    _BY_NAME[_dtype.short] = _dtype
    _BY_NAME[_dtype.name] = _dtype
_BY_NAME["bool_"] = _BY_NAME["bool"]  # the NumPy spelling, as in jnp.bool_

DTYPE_CHOICES: tuple[str, ...] = tuple(dict.fromkeys([d.short for d in DTYPES] + [d.name for d in DTYPES] + ["bool_"]))
"""Every accepted spelling, short names first: the ``choices`` of a dtype field."""


def lookup(text: str) -> DType:
    """The dtype called ``text`` (short or long name, with or without a ``jnp.``/``np.`` prefix).

    Raises:
        ValueError: for an unknown name, listing the short names.

    Examples:
        >>> lookup("bfloat16").short
        'bf16'
        >>> lookup("jnp.float8_e4m3fn").bits
        8
        >>> lookup("float")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: unknown dtype 'float'; use one of f32, bf16, f16, f64, ...
    """
    name = text.strip()
    for prefix in ("jnp.", "np.", "jax.numpy.", "numpy."):
        name = name.removeprefix(prefix)
    try:
        return _BY_NAME[name]
    except KeyError:
        known = ", ".join(d.short for d in DTYPES)
        raise ValueError(f"unknown dtype {text.strip()!r}; use one of {known}") from None


def canonical(text: str) -> str:
    """The short name of the dtype spelled ``text``.

    Examples:
        >>> canonical("float32"), canonical("bool_")
        ('f32', 'bool')
    """
    return lookup(text).short


def short_name(text: str) -> str:
    """The short name of ``text`` when it is a known dtype, else ``text`` unchanged (for display).

    Examples:
        >>> short_name("bfloat16"), short_name("int32"), short_name("float8_e4m3fn"), short_name("int2")
        ('bf16', 'i32', 'f8_e4m3fn', 'int2')
    """
    found = _BY_NAME.get(text)
    return found.short if found is not None else text


def long_name(text: str) -> str:
    """The NumPy name of ``text`` when it is a known dtype, else ``text`` unchanged (for display).

    Examples:
        >>> long_name("f32"), long_name("bool_"), long_name("int2")
        ('float32', 'bool', 'int2')
    """
    found = _BY_NAME.get(text)
    return found.name if found is not None else text


# -- the aval notation ------------------------------------------------------------------------------


def aval(
    dtype: str | None,
    shape: Sequence[int | None] | None,
    weak: bool = False,
    *,
    long: bool = False,
) -> str:
    """An array type in JAX's notation: ``f32[8,128]``, ``~i32[]``, ``?`` for what is unknown.

    Args:
        dtype: Any spelling of the dtype (an unknown one is written as given), or ``None``.
        shape: The dimensions (``None`` for an unknown one), or ``None`` when the rank is unknown.
        weak: Whether the type is weak (a Python scalar's): marked with ``~``.
        long: Write the long dtype name, as JAX's error messages do (``float32[3]``).

    Examples:
        >>> aval("float32", (8, 128)), aval("i32", (), weak=True), aval("bf16", (4, None))
        ('f32[8,128]', '~i32[]', 'bf16[4,?]')
        >>> aval(None, None), aval("f16", [2], long=True)
        ('?[?]', 'float16[2]')
    """
    name = "?" if dtype is None else long_name(dtype) if long else short_name(dtype)
    dims = "?" if shape is None else ",".join("?" if size is None else str(size) for size in shape)
    return f"{'~' if weak else ''}{name}[{dims}]"


# -- torch spellings --------------------------------------------------------------------------------

_TORCH_ALIASES = {
    "float": "float32",
    "half": "float16",
    "double": "float64",
    "int": "int32",
    "short": "int16",
    "long": "int64",
}
"""``torch.<name>`` spellings that are not NumPy names."""


def torch_dtype(name: str) -> DType | None:
    """The dtype ``torch.<name>`` denotes, or ``None`` when the table does not know it.

    Examples:
        >>> torch_dtype("long").short, torch_dtype("bfloat16").short, torch_dtype("cfloat")
        ('i64', 'bf16', None)
    """
    return _BY_NAME.get(_TORCH_ALIASES.get(name, name))


# -- JAX in 32-bit mode ------------------------------------------------------------------------------

_X64_DOWNCAST = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}
"""What a 64-bit dtype becomes while ``jax_enable_x64`` is off (JAX's default)."""

_PYTHON_TYPES = {"float": "float32", "int": "int32", "bool": "bool", "complex": "complex64"}


def x32(name: str) -> str:
    """The long name of the dtype JAX uses for ``name`` with ``jax_enable_x64`` off.

    Examples:
        >>> x32("float64"), x32("bf16"), x32("bool_")
        ('float32', 'bfloat16', 'bool')
    """
    long = long_name(name)
    return _X64_DOWNCAST.get(long, long)


def python_scalar_dtype(type_name: str) -> str | None:
    """The dtype JAX gives the Python type ``type_name`` (``float`` -> ``float32``), in 32-bit mode."""
    return _PYTHON_TYPES.get(type_name)


# -- promotion --------------------------------------------------------------------------------------

PROMOTABLE_DTYPES: tuple[str, ...] = (
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
"""The dtypes :func:`result_type` is checked on (JAX's 32-bit mode); anything else is unknown to it."""

_WEAK_KIND = {"i*": "int32", "f*": "float32", "c*": "complex64"}
"""The weak lattice nodes (Python int, float, complex) and the dtype they canonicalise to."""

_LATTICE: dict[str, tuple[str, ...]] = {
    "bool": ("i*",),
    "uint8": ("int16", "uint16"),
    "uint16": ("int32", "uint32"),
    "uint32": ("int64", "uint64"),
    "uint64": ("f*",),
    "i*": ("uint8", "int8", "int4"),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": ("f*",),
    "int4": (),
    "f*": ("float8_e4m3fn", "float8_e5m2", "float16", "bfloat16", "c*"),
    "float8_e4m3fn": (),
    "float8_e5m2": (),
    "float16": ("float32",),
    "bfloat16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    "c*": ("complex64",),
    "complex64": ("complex128",),
    "complex128": (),
}
"""Edges of JAX's type promotion lattice (each node lists its immediate successors), after
``jax._src.dtypes``."""


@functools.cache
def _upper_set(node: str) -> frozenset[str]:
    """Every node reachable from ``node``, itself included."""
    found = {node}
    for successor in _LATTICE[node]:
        found |= _upper_set(successor)
    return frozenset(found)


def _least_upper_bound(nodes: set[str]) -> str:
    common = frozenset.intersection(*(_upper_set(n) for n in nodes))
    if not common:
        # JAX raises TypePromotionError: 4-bit integers and 8-bit floats promote only explicitly.
        raise ValueError(f"dtypes {', '.join(sorted(nodes))} have no implicit promotion path")
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
    """The dtype and weak type of an elementwise operation on ``(dtype, weak_type)`` operands (long names).

    A weakly typed operand (a Python scalar, or a value computed only from Python scalars) stands for
    its kind (``int``, ``float``, ``complex``) rather than for its dtype.

    Raises:
        ValueError: when JAX has no implicit promotion between them (``int4`` with ``int8``), as JAX's
            ``TypePromotionError`` is one.

    Examples:
        >>> result_type(("int32", False), ("float32", True))  # jnp.int32(1) + 1.0 is ~float32[]
        ('float32', True)
        >>> result_type(("float16", False), ("float32", True))
        ('float16', False)
        >>> result_type(("int32", True), ("float32", True))
        ('float32', True)
        >>> result_type(("float32", True), ("complex64", False))
        ('complex64', False)
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
    """Whether ``dtype`` (any spelling) is a floating or complex dtype.

    Examples:
        >>> is_inexact("bf16"), is_inexact("int8"), is_inexact("complex64")
        (True, False, True)
    """
    found = _BY_NAME.get(dtype)
    return found is not None and found.kind in ("float", "complex")
