"""Element types the calculators understand: names, aliases, bit widths and byte sizes.

Each dtype has the short name JAX prints in avals (``f32[8,128]``, ``bf16[4]``, ``i4[64]``) and the
long name used in code (``jnp.float32``, ``jnp.bfloat16``, ``jnp.int4``). Fields accept either
spelling; results print the short one.
"""

from __future__ import annotations

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
