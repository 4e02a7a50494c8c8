"""What JAX and NumPy array APIs return, as abstract values.

Constructors are evaluated exactly (shape, dtype, weak type) with JAX's defaults for 32-bit
mode (``jax_enable_x64`` off): a Python float becomes ``float32`` and a Python int ``int32``,
weakly typed when it came from a bare scalar. Other functions are classified only as far as the
rules need: does the result depend on the values (so it is traced under ``jit``), or only on
static facts such as the shape?
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xlalens.analyzers.semantics.values import UNKNOWN, Array, Const, Dim, Seq, Static, Value

STATIC_RESULT_FUNCTIONS = frozenset(
    {
        "shape",
        "ndim",
        "size",
        "result_type",
        "dtype",
        "issubdtype",
        "iinfo",
        "finfo",
        "promote_types",
        "isscalar",
        "iscomplexobj",
        "isrealobj",
        "broadcast_shapes",
        "can_cast",
    }
)
"""``jax.numpy`` functions whose result is a static Python value under tracing."""

CONSTRUCTORS = frozenset(
    {
        "zeros",
        "ones",
        "empty",
        "full",
        "arange",
        "eye",
        "identity",
        "linspace",
        "array",
        "asarray",
        "zeros_like",
        "ones_like",
        "empty_like",
        "full_like",
    }
)
"""Array constructors evaluated to a shape and dtype."""

DTYPE_POSITIONS: dict[str, int] = {"zeros": 1, "ones": 1, "empty": 1, "full": 2, "array": 1, "asarray": 1}
"""Constructor -> position of its ``dtype`` argument when passed positionally."""

ARRAY_METHODS = frozenset(
    {
        "all",
        "any",
        "argmax",
        "argmin",
        "argsort",
        "astype",
        "clip",
        "conj",
        "conjugate",
        "cumprod",
        "cumsum",
        "diagonal",
        "dot",
        "flatten",
        "max",
        "mean",
        "min",
        "nonzero",
        "prod",
        "ravel",
        "repeat",
        "reshape",
        "round",
        "sort",
        "squeeze",
        "std",
        "sum",
        "swapaxes",
        "take",
        "trace",
        "transpose",
        "var",
        "block_until_ready",
    }
)
"""Methods only arrays have (not dicts, lists, tuples): calling one proves the receiver is an array."""

CONCRETIZING_METHODS = frozenset({"item", "tolist", "__index__", "__int__", "__float__", "__bool__"})
"""Array methods that need a concrete value."""

BOOL_RESULT_FUNCTIONS = frozenset(
    {
        "isnan",
        "isinf",
        "isfinite",
        "isneginf",
        "isposinf",
        "isclose",
        "signbit",
        "logical_and",
        "logical_or",
        "logical_not",
        "logical_xor",
        "equal",
        "not_equal",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "isin",
    }
)
"""``jax.numpy`` functions returning boolean arrays (usable as masks)."""

TREE_RESULT_LAX = frozenset(
    {
        "scan",
        "fori_loop",
        "while_loop",
        "cond",
        "switch",
        "map",
        "associative_scan",
        "custom_root",
        "custom_linear_solve",
    }
)
"""``jax.lax`` functions returning pytrees rather than one array."""

STATIC_RESULT_LAX = frozenset({"axis_size"})
"""``jax.lax`` functions returning a Python value known at trace time (a mapped axis's size)."""

_DTYPE_NAMES = {
    "float": "float32",
    "int": "int32",
    "bool": "bool",
    "complex": "complex64",
}
_KNOWN_DTYPES = frozenset(
    {
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "bool",
        "bool_",
        "complex64",
        "complex128",
    }
)
_X64_DOWNCAST = {
    "float64": "float32",
    "int64": "int32",
    "uint64": "uint32",
    "complex128": "complex64",
}


def dtype_name(qualname_or_const: str | None) -> str | None:
    """The dtype a ``dtype=`` argument denotes, in 32-bit mode.

    Examples:
        >>> dtype_name("jax.numpy.bfloat16")
        'bfloat16'
        >>> dtype_name("builtins.float")
        'float32'
        >>> dtype_name("float64")
        'float32'
    """
    if qualname_or_const is None:
        return None
    last = qualname_or_const.rsplit(".", 1)[-1]
    if qualname_or_const.startswith("builtins."):
        return _DTYPE_NAMES.get(last)
    if last in _KNOWN_DTYPES:
        name = "bool" if last == "bool_" else last
        return _X64_DOWNCAST.get(name, name)
    return None


def _scalar_dtype(value: object) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int32"
    if isinstance(value, float):
        return "float32"
    if isinstance(value, complex):
        return "complex64"
    return None


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
        length = max(0, math.ceil((stop - start) / step)) if step else None
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
