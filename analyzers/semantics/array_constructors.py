"""The abstract value of a ``jax.numpy`` array constructor call: exact shape, dtype and weak type.

Constructors are evaluated with JAX's defaults for 32-bit mode (``jax_enable_x64`` off): a Python
float becomes ``float32`` and a Python int ``int32``, weakly typed when it came from a bare scalar.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xlalens.analyzers.semantics.values import UNKNOWN, Array, Const, Dim, Seq, Static, Value
from xlalens.explainers.calculators import dtypes


def _scalar_dtype(value: object) -> str | None:
    return dtypes.python_scalar_dtype(type(value).__name__)


def shape_of(value: Value) -> tuple[Dim, ...] | None:
    """Read a shape argument: an int, or a tuple/list of ints (unknown entries become None).

    Examples:
        >>> shape_of(Const(3))
        (3,)
        >>> shape_of(Seq((Const(2), Static("int"))))
        (2, None)
    """
    if isinstance(value, Const) and type(value.value) is int:
        return (value.value,)
    if isinstance(value, Seq):
        dims: list[Dim] = []
        for item in value.items:
            if isinstance(item, Const) and type(item.value) is int:
                dims.append(item.value)
            elif isinstance(item, Static):
                dims.append(None)
            else:
                return None
        return tuple(dims)
    return None


def _literal_nesting(value: Value) -> tuple[tuple[int, ...], str] | None:
    if isinstance(value, Const):
        dtype = _scalar_dtype(value.value)
        return ((), dtype) if dtype else None
    if isinstance(value, Seq) and value.items:
        parts = [_literal_nesting(item) for item in value.items]
        if any(p is None for p in parts):
            return None
        shapes = {p[0] for p in parts if p}
        if len(shapes) != 1:
            return None
        order = ["bool", "int32", "float32", "complex64"]
        dtype = max((p[1] for p in parts if p), key=order.index)
        return (len(value.items), *shapes.pop()), dtype
    return None


def evaluate_constructor(
    name: str,
    args: Sequence[Value],
    keywords: dict[str, Value],
    dtype_arg: str | None,
    traced: bool,
) -> Value:
    """The abstract result of ``jax.numpy.<name>(*args, **keywords)``.

    ``dtype_arg`` is the already-resolved ``dtype=`` (or positional dtype) argument.

    Examples:
        >>> evaluate_constructor("zeros", [Seq((Const(2), Const(3)))], {}, None, False).describe()
        'float32[2,3]'
        >>> evaluate_constructor("full", [Const(4), Const(1.0)], {}, None, False).describe()
        '~float32[4]'
        >>> evaluate_constructor("arange", [Const(5)], {}, None, True).describe()
        'int32[5]'
    """
    explicit = dtype_arg is not None
    if name in ("zeros", "ones", "empty"):
        shape = shape_of(args[0]) if args else None
        return Array(shape, dtype_arg or "float32", False, traced)
    if name == "full":
        shape = shape_of(args[0]) if args else None
        fill = args[1] if len(args) > 1 else keywords.get("fill_value", UNKNOWN)
        if explicit:
            return Array(shape, dtype_arg, False, traced)
        if isinstance(fill, Const) and _scalar_dtype(fill.value):
            return Array(shape, _scalar_dtype(fill.value), fill.value.__class__ is not bool, traced)
        if isinstance(fill, Array) and fill.shape == ():
            return Array(shape, fill.dtype, fill.weak_type, traced or fill.traced)
        return Array(shape, None, False, traced)
    if name == "arange":
        numbers = [a.value for a in args[:3] if isinstance(a, Const) and isinstance(a.value, int | float)]
        if len(numbers) != len(args[:3]) or not numbers:
            return Array(None, dtype_arg, False, traced)
        start, stop, step = (
            (0, numbers[0], 1) if len(numbers) == 1 else (*numbers[:2], numbers[2] if len(numbers) > 2 else 1)
        )
        length = _arange_length(start, stop, step)
        is_float = any(isinstance(n, float) for n in numbers)
        return Array((length,), dtype_arg or ("float32" if is_float else "int32"), False, traced)
    if name == "linspace":
        num = args[2] if len(args) > 2 else keywords.get("num", Const(50))
        length = num.value if isinstance(num, Const) and type(num.value) is int else None
        return Array((length,), dtype_arg or "float32", False, traced)
    if name in ("eye", "identity"):
        n = args[0] if args else UNKNOWN
        m = args[1] if len(args) > 1 and name == "eye" else keywords.get("M", n)
        if isinstance(m, Const) and m.value is None:
            m = n
        dims = tuple(v.value if isinstance(v, Const) and type(v.value) is int else None for v in (n, m))
        return Array(dims, dtype_arg or "float32", False, traced)
    if name in ("array", "asarray"):
        source = args[0] if args else UNKNOWN
        if isinstance(source, Array):
            return Array(
                source.shape,
                dtype_arg or source.dtype,
                source.weak_type and not explicit,
                traced or source.traced,
            )
        nesting = _literal_nesting(source)
        if nesting is None:
            return Array(None, dtype_arg, False, traced)
        shape, dtype = nesting
        weak = shape == () and dtype != "bool" and not explicit
        return Array(shape, dtype_arg or dtype, weak, traced)
    if name.endswith("_like"):
        like = args[0] if args else UNKNOWN
        if isinstance(like, Array):
            return Array(
                like.shape,
                dtype_arg or like.dtype,
                like.weak_type and not explicit,
                traced or like.traced,
            )
        return Array(None, dtype_arg, False, traced)
    return Array(None, dtype_arg, False, traced)


_MAX_LENGTH = 2**62
"""Longer dimensions are no real array's: taken as unknown, so no later arithmetic overflows on them."""


def _arange_length(start: float, stop: float, step: float) -> int | None:
    """How many elements ``arange(start, stop, step)`` has, or None for a NaN, infinite or absurd bound.

    Examples:
        >>> _arange_length(0, 10, 3), _arange_length(0, float("nan"), 1), _arange_length(0, 10**400, 1)
        (4, None, None)
    """
    if not step or not all(isinstance(n, int) or math.isfinite(n) for n in (start, stop, step)):
        return None
    try:
        length = max(0, math.ceil((stop - start) / step))
    except (OverflowError, ValueError):
        return None
    return length if length <= _MAX_LENGTH else None
