"""Shape and dtype rules of ``jax.numpy`` operations, as pure functions on shapes and dtype names.

One home for the rules both interpreters apply (the general one and the loop-carry one): broadcasting,
``@``, reductions, indexing, ``stack`` and ``concatenate``. Every function answers ``None`` when the
operation would fail or its result cannot be told from what is given, so callers stay silent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xlalens.analyzers.semantics.numbers import slice_length
from xlalens.explainers.calculators.dtypes import is_inexact


def broadcast(shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """NumPy broadcasting of known shapes; ``None`` when they do not broadcast.

    Examples:
        >>> broadcast([(3, 1), (4,)]), broadcast([(), (2, 2)])
        ((3, 4), (2, 2))
        >>> print(broadcast([(3,), (4,)]))
        None
    """
    rank = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (rank - len(s)) + s for s in shapes]
    out: list[int] = []
    for dims in zip(*padded, strict=True):
        sizes = {d for d in dims if d != 1}
        if len(sizes) > 1:
            return None
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def matmul_shape(left: tuple[int, ...], right: tuple[int, ...]) -> tuple[int, ...] | None:
    """The shape of ``left @ right``: vectors promoted then squeezed, batch axes broadcast.

    Examples:
        >>> matmul_shape((4, 3), (3, 2)), matmul_shape((5, 4, 3), (3,)), matmul_shape((3,), (3, 2))
        ((4, 2), (5, 4), (2,))
        >>> print(matmul_shape((4, 3), (2, 2)))
        None
    """
    if not left or not right:
        return None
    a = (1, *left) if len(left) == 1 else left
    b = (*right, 1) if len(right) == 1 else right
    if a[-1] != b[-2]:
        return None
    batch = broadcast([a[:-2], b[:-2]])
    if batch is None:
        return None
    return (*batch, *(() if len(left) == 1 else (a[-2],)), *(() if len(right) == 1 else (b[-1],)))


def reduced_dtype(name: str, dtype: str) -> str:
    """The dtype of a reduction's result: sums of small integers widen, means of integers are floats.

    Examples:
        >>> reduced_dtype("sum", "bool"), reduced_dtype("sum", "uint8"), reduced_dtype("mean", "int32")
        ('int32', 'uint32', 'float32')
        >>> reduced_dtype("max", "int8"), reduced_dtype("argmax", "bfloat16"), reduced_dtype("mean", "bfloat16")
        ('int8', 'int32', 'bfloat16')
    """
    if name in ("argmax", "argmin"):
        return "int32"
    if is_inexact(dtype) or name in ("max", "min"):
        return dtype
    if name == "mean":
        return "float32"
    return "uint32" if dtype.startswith("uint") else "int32"


def reduced_shape(shape: tuple[int, ...], axis: int | None, keepdims: bool = False) -> tuple[int, ...] | None:
    """The shape left after reducing over all axes (``axis=None``) or one (negative counts from the end).

    Examples:
        >>> reduced_shape((4, 3), None), reduced_shape((4, 3), -1), reduced_shape((4, 3), 0, keepdims=True)
        ((), (4,), (1, 3))
        >>> print(reduced_shape((4, 3), 2))
        None
    """
    if axis is None:
        return tuple(1 for _ in shape) if keepdims else ()
    if not -len(shape) <= axis < len(shape):
        return None
    position = axis % len(shape)
    return (*shape[:position], *((1,) if keepdims else ()), *shape[position + 1 :])


@dataclass(frozen=True, slots=True)
class IndexPart:
    """One entry of an index tuple.

    Attributes:
        kind: ``int`` (a scalar integer), ``slice``, ``none`` (a new axis), ``ellipsis`` or ``array``
            (an integer array: advanced indexing).
        bounds: A slice's ``(start, stop, step)``, each an int or ``None`` when omitted.
        shape: An integer array index's shape.
    """

    kind: str
    bounds: tuple[int | None, int | None, int | None] = (None, None, None)
    shape: tuple[int, ...] = ()


FULL_SLICE = IndexPart("slice")


def index_shape(shape: tuple[int, ...], parts: list[IndexPart]) -> tuple[int, ...] | None:
    """The shape of ``x[parts]`` for an array of ``shape``, by NumPy's basic and advanced indexing rules.

    Integer arrays that sit next to each other put their broadcast shape in their place; separated
    by a slice, it goes first (as NumPy does).

    Examples:
        >>> index_shape((4, 4), [IndexPart("array", shape=(2,))])
        (2, 4)
        >>> index_shape((2, 3), [FULL_SLICE, IndexPart("none")])
        (2, 1, 3)
        >>> index_shape((5, 2, 3), [IndexPart("ellipsis"), IndexPart("int")])
        (5, 2)
        >>> index_shape((10, 3), [IndexPart("slice", (2, 8, 2))])
        (3, 3)
        >>> print(index_shape((2,), [IndexPart("int"), IndexPart("int")]))
        None
    """
    if sum(part.kind == "ellipsis" for part in parts) > 1:
        return None
    consumed = sum(part.kind in ("int", "slice", "array") for part in parts)
    if consumed > len(shape):
        return None
    expanded: list[IndexPart] = []
    for part in parts:
        if part.kind == "ellipsis":
            expanded.extend([FULL_SLICE] * (len(shape) - consumed))
        else:
            expanded.append(part)
    expanded.extend([FULL_SLICE] * (len(shape) - sum(p.kind != "none" for p in expanded)))
    out: list[int] = []
    advanced_at: int | None = None
    advanced_shapes: list[tuple[int, ...]] = []
    separated = False
    dims = iter(shape)
    for part in expanded:
        if part.kind == "none":
            out.append(1)
            continue
        size = next(dims)
        if part.kind == "slice":
            length = _slice_length(size, part.bounds)
            if length is None:
                return None
            out.append(length)
        elif part.kind in ("int", "array"):
            if advanced_at is None:
                advanced_at = len(out)
            elif advanced_at != len(out):
                separated = True
            advanced_shapes.append(part.shape if part.kind == "array" else ())
        else:
            return None
    if advanced_at is None:
        return tuple(out)
    advanced = broadcast(advanced_shapes)
    if advanced is None:
        return None
    if separated:
        return (*advanced, *out)
    return (*out[:advanced_at], *advanced, *out[advanced_at:])


def _slice_length(size: int, bounds: tuple[int | None, int | None, int | None]) -> int | None:
    return slice_length(size, bounds)


def joined_shape(name: str, shapes: list[tuple[int, ...]], axis: int) -> tuple[int, ...] | None:
    """The shape of ``stack``/``concatenate`` of arrays of ``shapes`` along ``axis`` (negative from the end).

    Examples:
        >>> joined_shape("stack", [(2, 2), (2, 2)], 0), joined_shape("concatenate", [(2, 3), (4, 3)], 0)
        ((2, 2, 2), (6, 3))
        >>> print(joined_shape("concatenate", [(2, 3), (4, 2)], 0))
        None
    """
    if not shapes:
        return None
    first = shapes[0]
    if name == "stack":
        if any(s != first for s in shapes) or not -len(first) - 1 <= axis <= len(first):
            return None
        position = axis % (len(first) + 1)
        return (*first[:position], len(shapes), *first[position:])
    if not first or not -len(first) <= axis < len(first) or any(len(s) != len(first) for s in shapes):
        return None
    position = axis % len(first)
    if len({s[:position] + s[position + 1 :] for s in shapes}) != 1:
        return None
    return (*first[:position], sum(s[position] for s in shapes), *first[position + 1 :])


JOINING_FUNCTIONS = frozenset({"concatenate", "stack", "append", "vstack", "hstack"})


def joining_shape(name: str, shapes: list[tuple[int, ...]], axis: int | None) -> tuple[int, ...] | None:
    """The shape of ``jnp.concatenate``, ``stack``, ``append``, ``vstack`` or ``hstack`` of ``shapes``.

    ``axis`` is the call's (``None`` flattens, as ``append`` does by default); ``vstack`` and
    ``hstack`` ignore it. For ``append`` the shapes are the array's and the appended values'.

    Examples:
        >>> joining_shape("append", [(6,), ()], None), joining_shape("append", [(2, 3), (2, 1)], 1)
        ((7,), (2, 4))
        >>> joining_shape("vstack", [(3,), (3,)], None), joining_shape("vstack", [(2, 3), (1, 3)], None)
        ((2, 3), (3, 3))
        >>> joining_shape("hstack", [(3,), (2,)], None), joining_shape("concatenate", [(2, 3), (2, 3)], None)
        ((5,), (12,))
    """
    if not shapes:
        return None
    if name == "vstack":
        return joined_shape("concatenate", [s if len(s) >= 2 else (1, *s) if s else (1, 1) for s in shapes], 0)
    if name == "hstack":
        ranks = {len(s) for s in shapes}
        return joined_shape("concatenate", shapes, 0 if ranks == {1} else 1) if 0 not in ranks else None
    if axis is None:
        if name == "stack":
            return joined_shape("stack", shapes, 0)
        return (sum(math.prod(s) for s in shapes),)
    return joined_shape("stack" if name == "stack" else "concatenate", shapes, axis)


def swapped_shape(shape: tuple[int | None, ...], first: int, second: int) -> tuple[int | None, ...] | None:
    """The shape after ``swapaxes(first, second)`` (negative axes count from the end).

    Examples:
        >>> swapped_shape((2, 5, 3), 0, 1), swapped_shape((2, 5, 3), -1, -2)
        ((5, 2, 3), (2, 3, 5))
        >>> print(swapped_shape((2, 3), 0, 2))
        None
    """
    rank = len(shape)
    if not (-rank <= first < rank and -rank <= second < rank):
        return None
    dims = list(shape)
    dims[first], dims[second] = dims[second], dims[first]
    return tuple(dims)


def take_along_axis_shape(array: tuple[int, ...], indices: tuple[int, ...], axis: int) -> tuple[int, ...] | None:
    """The shape of ``take_along_axis(array, indices, axis)``: the indices' size on ``axis``, broadcast elsewhere.

    Examples:
        >>> take_along_axis_shape((4, 2), (4, 1), -1), take_along_axis_shape((4, 5), (1, 3), 1)
        ((4, 1), (4, 3))
        >>> print(take_along_axis_shape((4, 2), (4,), -1))
        None
    """
    if len(array) != len(indices) or not -len(array) <= axis < len(array):
        return None
    position = axis % len(array)
    out: list[int] = []
    for i, (a, b) in enumerate(zip(array, indices, strict=True)):
        if i == position:
            out.append(b)
        elif a == b or 1 in (a, b):
            out.append(max(a, b) if 1 in (a, b) else a)
        else:
            return None
    return tuple(out)


def einsum_shape(spec: str, shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The shape of ``jnp.einsum(spec, *operands)`` for an explicit spec (``"nk,nd->kd"``) without ellipses.

    Examples:
        >>> einsum_shape("nk,nd->kd", [(4, 2), (4, 3)]), einsum_shape("ij,jk->ik", [(2, 3), (3, 5)])
        ((2, 3), (2, 5))
        >>> print(einsum_shape("ij,jk->ik", [(2, 3), (4, 5)]))
        None
    """
    if "->" not in spec or "." in spec:
        return None
    inputs, output = spec.replace(" ", "").split("->")
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        return None
    sizes: dict[str, int] = {}
    for term, shape in zip(terms, shapes, strict=True):
        if len(term) != len(shape):
            return None
        for letter, size in zip(term, shape, strict=True):
            if sizes.setdefault(letter, size) != size and 1 not in (size, sizes[letter]):
                return None
            sizes[letter] = max(sizes[letter], size)
    if any(letter not in sizes for letter in output):
        return None
    return tuple(sizes[letter] for letter in output)


ELEMENTWISE_SAME = frozenset(
    {"abs", "absolute", "negative", "positive", "sign", "square", "round", "floor", "ceil", "trunc", "conj"}
)
"""``jnp`` functions whose result has the operand's shape and dtype (``abs`` of a complex array aside)."""
ELEMENTWISE_FLOAT = frozenset(
    {"exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sinh", "cosh", "arctan"}
    | {"sigmoid", "log_sigmoid", "relu", "gelu", "silu", "swish", "softplus", "softmax", "log_softmax", "elu"}
)
"""``jnp``/``jax.nn`` functions whose result keeps the shape and is floating (an integer input gives float32)."""
REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "argmax", "argmin", "std", "var", "any", "all"})
"""Reductions over all axes or one, as functions (``jnp.sum(x)``) and as array methods (``x.sum()``)."""


@dataclass(frozen=True, slots=True)
class ArrayType:
    """What is known of an array: its shape (``None`` when unknown) and dtype (``None`` when unknown)."""

    shape: tuple[int, ...] | None
    dtype: str | None
    weak: bool = False


def bincount_result(length: int | None, weights: ArrayType | None) -> ArrayType:
    """The type of ``jnp.bincount(x, weights, length=length)``: one count per bin.

    Counts are ``int32``; weighted counts take the weights' dtype. Without ``length`` the number
    of bins follows the data (the largest value), so the shape is unknown.

    Examples:
        >>> bincount_result(9, None)
        ArrayType(shape=(9,), dtype='int32', weak=False)
        >>> bincount_result(5, ArrayType((4,), "bfloat16"))
        ArrayType(shape=(5,), dtype='bfloat16', weak=False)
        >>> bincount_result(None, None).shape is None
        True
    """
    shape = (length,) if length is not None else None
    if weights is None:
        return ArrayType(shape, "int32")
    return ArrayType(shape, None if weights.weak else weights.dtype)


CUMULATIVE = frozenset({"cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "nancumsum", "nancumprod"})
"""Running sums and products: the operand's shape along ``axis``, flattened without one."""


def function_result(
    name: str, operands: list[ArrayType], axis: int | None = None, keepdims: bool = False
) -> ArrayType | None:
    """The type of ``jnp.<name>(*operands, axis=axis, keepdims=keepdims)`` for the functions tabled here.

    Examples:
        >>> function_result("tanh", [ArrayType((4, 2), "int32")])
        ArrayType(shape=(4, 2), dtype='float32', weak=False)
        >>> function_result("mean", [ArrayType((4, 2), "bool")], axis=-1)
        ArrayType(shape=(4,), dtype='float32', weak=False)
        >>> function_result("any", [ArrayType(None, "float32")])
        ArrayType(shape=(), dtype='bool', weak=False)
        >>> function_result("cumsum", [ArrayType((2, 3), "float32")], axis=1)
        ArrayType(shape=(2, 3), dtype='float32', weak=False)
        >>> function_result("cumprod", [ArrayType((2, 3), "bool")])
        ArrayType(shape=(6,), dtype='int32', weak=False)
        >>> print(function_result("cumsum", [ArrayType((3,), "float32")], axis=1))
        None
        >>> function_result("linalg.norm", [ArrayType((12, 32), "int32")], axis=-1, keepdims=True)
        ArrayType(shape=(12, 1), dtype='float32', weak=False)
    """
    if len(operands) != 1:
        return None
    (x,) = operands
    if name in ELEMENTWISE_SAME:
        if x.dtype is not None and x.dtype.startswith("complex") and name in ("abs", "absolute"):
            return None
        return x
    if name in ELEMENTWISE_FLOAT:
        dtype = x.dtype if x.dtype is None or is_inexact(x.dtype) else "float32"
        return ArrayType(x.shape, dtype, x.weak and dtype == x.dtype)
    if name in CUMULATIVE:
        if x.weak or x.shape is None or keepdims or not all(type(d) is int for d in x.shape):
            return None
        if axis is None:
            shape: tuple[int, ...] | None = (math.prod(x.shape),)  # type: ignore[arg-type]
        elif -len(x.shape) <= axis < len(x.shape):
            shape = x.shape  # type: ignore[assignment]
        else:
            return None
        kind = "prod" if "prod" in name else "sum"
        return ArrayType(shape, reduced_dtype(kind, x.dtype) if x.dtype is not None else None)
    if name == "linalg.norm":
        # The 2-norm over `axis` (or of every element): a real floating result.
        if x.weak or x.dtype is None:
            return None
        shape = reduced_shape(x.shape, axis, keepdims) if x.shape is not None else None
        dtype = {"complex64": "float32", "complex128": "float64"}.get(x.dtype, x.dtype)
        return ArrayType(shape, dtype if is_inexact(dtype) else "float32")
    if name in REDUCTIONS:
        if x.weak:
            return None
        if x.shape is not None:
            shape = reduced_shape(x.shape, axis, keepdims)
        else:
            shape = () if axis is None and not keepdims else None
        if name in ("any", "all"):
            return ArrayType(shape, "bool")
        if x.dtype is None:
            return ArrayType(shape, "int32" if name in ("argmax", "argmin") else None)
        dtype = reduced_dtype("mean" if name in ("std", "var") else name, x.dtype)
        return ArrayType(shape, dtype)
    return None
