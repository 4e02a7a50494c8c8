"""Abstract values of the Pallas API: BlockSpecs, grid specs, ShapeDtypeStructs, buffering and compiler params.

The interpreter (:mod:`.evaluate`) hands every call of a Pallas constructor here, so a
``pl.BlockSpec`` built in one statement and used in another, a grid computed with ``pl.cdiv`` or an
``out_shape`` assigned to a name all keep what they are. The values only describe the arguments;
what a ``pallas_call`` does with them is worked out in :mod:`.pallas_model`. Anything that is not
a literal the interpreter knows stays unknown (a block size of ``None`` inside :class:`BlockDim`,
``UNKNOWN`` elsewhere), so no rule fires on a guess.

Examples:
    >>> short_name("jax.experimental.pallas.tpu.PrefetchScalarGridSpec")
    'pltpu.PrefetchScalarGridSpec'
    >>> short_name("jax._src.pallas.core.BlockSpec")
    'pl.BlockSpec'
    >>> short_name("jax.numpy.zeros") is None
    True
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xlalens.analyzers.knowledge import arrays
from xlalens.analyzers.semantics.interpreter import ApiCall, InterpreterExtension
from xlalens.analyzers.semantics.values import UNKNOWN, Array, CallArguments, Const, Dim, ModuleRef, Seq, Static, Value

# Public and internal module paths, by the alias the Pallas docs use for them.
_PREFIXES: tuple[tuple[str, str], ...] = (
    ("jax.experimental.pallas.tpu.", "pltpu."),
    ("jax._src.pallas.mosaic.core.", "pltpu."),
    ("jax._src.pallas.mosaic.", "pltpu."),
    ("jax.experimental.pallas.triton.", "plgpu."),
    ("jax.experimental.pallas.mosaic_gpu.", "plgpu."),
    ("jax._src.pallas.triton.", "plgpu."),
    ("jax._src.pallas.mosaic_gpu.", "plgpu."),
    ("jax.experimental.pallas.", "pl."),
    ("jax._src.pallas.core.", "pl."),
    ("jax._src.pallas.pallas_call.", "pl."),
    ("jax._src.pallas.utils.", "pl."),
    ("jax._src.pallas.", "pl."),
)
PALLAS_CALL = "pl.pallas_call"
SHAPE_DTYPE_STRUCT = "jax.ShapeDtypeStruct"
_BLOCK_SPECS = frozenset({"pl.BlockSpec", "plgpu.BlockSpec"})
_BLOCK_DIMS = {
    "pl.Squeezed": "squeezed",
    "pl.Blocked": "blocked",
    "pl.Element": "element",
    "pl.BoundedSlice": "bounded",
}
_SQUEEZED_CONSTANTS = frozenset({"pl.squeezed", "pl.Squeezed"})
_GRID_SPECS = frozenset({"pl.GridSpec", "pltpu.PrefetchScalarGridSpec"})
_SCRATCH = {
    "pltpu.VMEM": "vmem",
    "pltpu.SMEM": "smem",
    "pltpu.MemorySpace.VMEM": "vmem",
    "pltpu.MemorySpace.SMEM": "smem",
}
_MEMORY_SPACES = {
    "pltpu.VMEM": "vmem",
    "pltpu.MemorySpace.VMEM": "vmem",
    "pltpu.SMEM": "smem",
    "pltpu.MemorySpace.SMEM": "smem",
    "pltpu.HBM": "hbm",
    "pltpu.MemorySpace.HBM": "hbm",
    "pltpu.ANY": "any",
    "pl.ANY": "any",
    "pl.MemorySpace.ANY": "any",
    "pltpu.SEMAPHORE": "semaphore",
    "pltpu.MemorySpace.SEMAPHORE": "semaphore",
}


def short_name(qualname: str) -> str | None:
    """``pl.X``/``pltpu.X``/``plgpu.X`` for a Pallas API name, ``jax.ShapeDtypeStruct`` as is, else ``None``."""
    if qualname == SHAPE_DTYPE_STRUCT:
        return qualname
    for prefix, alias in _PREFIXES:
        if qualname.startswith(prefix):
            return alias + qualname[len(prefix) :]
    return None


PALLAS_CALL_NAMES = frozenset(
    prefix + "pallas_call" for prefix, _ in _PREFIXES if short_name(prefix + "pallas_call") == PALLAS_CALL
)
"""Every qualified name :func:`short_name` turns into ``pl.pallas_call``: the Pallas rules' ``call_names``."""


@dataclass(frozen=True, slots=True)
class ShapeDtype(Value):
    """A ``jax.ShapeDtypeStruct``: a shape and a dtype without data.

    Attributes:
        shape: The dimensions (``None`` where unknown), or ``None`` when even the rank is unknown.
        dtype: The dtype name, or ``None``.
    """

    shape: tuple[Dim, ...] | None
    dtype: str | None


@dataclass(frozen=True, slots=True)
class BlockDim(Value):
    """One entry of a block shape.

    Attributes:
        kind: ``blocked`` (a size: block index times size is the start), ``squeezed`` (size 1, dropped
            from the ref), ``element`` (the index map returns element offsets), ``bounded`` (a
            ``pl.BoundedSlice``) or ``unknown``.
        size: The size when known.
    """

    kind: str
    size: int | None = None


@dataclass(frozen=True, slots=True)
class Buffered(Value):
    """``pl.Buffered(buffer_count)``; ``count`` is ``None`` when not a literal."""

    count: int | None


@dataclass(frozen=True, slots=True)
class BlockSpecValue(Value):
    """A ``pl.BlockSpec(block_shape, index_map, memory_space=…, pipeline_mode=…)``.

    Attributes:
        node: The call that builds it (where findings about the spec are reported).
        block: One entry per block dimension; ``None`` for ``block_shape=None`` (the whole array);
            not given at all is also ``None``.
        block_known: Whether the block shape's rank is known (``False`` for a block shape the
            interpreter cannot follow).
        index_map: The index map: a ``FunctionRef``, ``Const(None)`` (all zeros) or ``UNKNOWN``.
        memory_space: ``vmem``, ``smem``, ``any``, ``hbm``, ``semaphore``, ``None`` (default) or
            ``unknown``.
        pipeline_mode: The ``pl.Buffered`` given (its count ``None`` when unknown), or ``None`` for
            the default double buffering.
    """

    node: ast.Call
    block: tuple[BlockDim, ...] | None
    block_known: bool
    index_map: Value
    memory_space: str | None
    pipeline_mode: Buffered | None


@dataclass(frozen=True, slots=True)
class GridSpecValue(Value):
    """``pl.GridSpec(…)`` or ``pltpu.PrefetchScalarGridSpec(num_scalar_prefetch, …)``.

    Attributes:
        node: The call that builds it.
        num_scalar_prefetch: ``Const(n)`` (0 for a plain ``GridSpec``), or unknown.
        grid: The grid value.
        in_specs: The ``in_specs`` value, ``None`` when not given.
        out_specs: The ``out_specs`` value, ``None`` when not given.
        scratch_shapes: The ``scratch_shapes`` value, ``None`` when not given.
        keywords: The expressions of the arguments by parameter name (for locating findings).
        tpu: Whether it is the TPU-only ``PrefetchScalarGridSpec``.
    """

    node: ast.Call
    tpu: bool
    num_scalar_prefetch: Value
    grid: Value
    in_specs: Value | None
    out_specs: Value | None
    scratch_shapes: Value | None
    keywords: tuple[tuple[str, ast.expr], ...]

    def argument(self, name: str) -> ast.expr | None:
        """The expression passed for parameter ``name``."""
        return dict(self.keywords).get(name)


@dataclass(frozen=True, slots=True)
class CompilerParamsValue(Value):
    """Compiler parameters: ``platform`` is ``tpu``, ``gpu`` or ``None`` (the generic ``pl.CompilerParams``);
    ``vmem_limit`` the ``vmem_limit_bytes`` value."""

    platform: str | None
    vmem_limit: Value


@dataclass(frozen=True, slots=True)
class ScratchValue(Value):
    """A scratch buffer such as ``pltpu.VMEM((8, 128), jnp.float32)``.

    Attributes:
        space: ``vmem``, ``smem`` or ``semaphore``.
        shape: Its shape, ``None`` when unknown.
        dtype: Its dtype name, ``None`` when unknown.
    """

    space: str
    shape: tuple[Dim, ...] | None
    dtype: str | None


@dataclass(frozen=True, slots=True)
class InterpretParamsValue(Value):
    """``pltpu.InterpretParams(…)``: interpret mode that simulates a TPU."""


@dataclass(frozen=True, slots=True, eq=False)
class PallasCallValue(Value):
    """What ``pl.pallas_call(…)`` returns: a function to call with the operands."""

    node: ast.Call


def memory_space(value: Value) -> str | None:
    """The memory space a ``memory_space=`` value names; ``unknown`` for anything else.

    Examples:
        >>> memory_space(ModuleRef("jax.experimental.pallas.tpu.SMEM"))
        'smem'
        >>> memory_space(Const(None)) is None
        True
    """
    if isinstance(value, Const) and value.value is None:
        return None
    if isinstance(value, ModuleRef):
        return _MEMORY_SPACES.get(short_name(value.qualname) or "", "unknown")
    return "unknown"


def shape_of(value: Value) -> tuple[Dim, ...] | None:
    """A shape value as dimensions: ``(8, 128)`` -> ``(8, 128)``, unknown sizes as ``None``."""
    if isinstance(value, Const) and isinstance(value.value, int) and not isinstance(value.value, bool):
        return (value.value,)
    if not isinstance(value, Seq):
        return None
    return tuple(_int(item) for item in value.items)


def _int(value: Value) -> int | None:
    if isinstance(value, Const) and isinstance(value.value, int) and not isinstance(value.value, bool):
        return value.value
    return None


def evaluate_call(
    qualname: str,
    node: ast.Call,
    args: Sequence[Value],
    keywords: Mapping[str, Value],
    recorded: Mapping[int, Value],
) -> Value | None:
    """The value of a call of Pallas API ``qualname``, or ``None`` when it is not one modelled here.

    Args:
        qualname: The callee's qualified name.
        node: The call.
        args: The values of the positional arguments.
        keywords: The values of the keyword arguments.
        recorded: Values already computed for sub-expressions (``x`` of ``x.dtype``).
    """
    name = short_name(qualname)
    if name is None:
        return None
    bound = CallArguments(node, args, keywords)
    if name == SHAPE_DTYPE_STRUCT:
        shape = bound.get(0, "shape")
        return ShapeDtype(shape_of(shape) if shape is not None else None, _dtype(bound.expr(1, "dtype"), recorded))
    if name in _BLOCK_SPECS:
        return _block_spec(node, bound)
    if name == "pl.cdiv":
        a, b = (_int(v) if v is not None else None for v in (bound.get(0, "a"), bound.get(1, "b")))
        if a is not None and b is not None and b > 0:
            return Const(-(-a // b))
        return Static("int")
    if name in _BLOCK_DIMS:
        size = bound.get(0, "block_size")
        return BlockDim(_BLOCK_DIMS[name], 1 if name == "pl.Squeezed" else _int(size) if size is not None else None)
    if name == "pl.Buffered":
        count = bound.get(0, "buffer_count")
        return Buffered(_int(count) if count is not None else None)
    if name in _GRID_SPECS:
        return _grid_spec(node, name, bound)
    if name.endswith("CompilerParams"):
        limit = keywords.get("vmem_limit_bytes", Const(None))
        platform = {"pltpu": "tpu", "plgpu": "gpu"}.get(name.split(".", 1)[0])
        return CompilerParamsValue(platform, limit)
    if name in _SCRATCH:
        shape = bound.get(0, "shape")
        dtype = _dtype(bound.expr(1, "dtype"), recorded)
        return ScratchValue(_SCRATCH[name], shape_of(shape) if shape is not None else None, dtype)
    if name.startswith("pltpu.SemaphoreType."):
        return ScratchValue("semaphore", None, None)
    if name == "pltpu.InterpretParams":
        return InterpretParamsValue()
    if name == PALLAS_CALL:
        return PallasCallValue(node)
    return None


def _dtype(expr: ast.expr | None, recorded: Mapping[int, Value]) -> str | None:
    """The dtype an argument names: ``jnp.float32``, ``"bfloat16"`` or ``x.dtype`` of a known array."""
    if expr is None:
        return None
    if isinstance(expr, ast.Attribute) and expr.attr == "dtype":
        base = recorded.get(id(expr.value), UNKNOWN)
        return base.dtype if isinstance(base, Array | ShapeDtype) else None
    value = recorded.get(id(expr), UNKNOWN)
    if isinstance(value, Const) and isinstance(value.value, str):
        return arrays.dtype_name(value.value)
    if isinstance(value, ModuleRef):
        return arrays.dtype_name(value.qualname)
    return None


def _block_dims(value: Value) -> tuple[BlockDim, ...] | None:
    if not isinstance(value, Seq):
        return None
    dims = []
    for item in value.items:
        if isinstance(item, BlockDim):
            dims.append(item)
        elif _squeezed(item):
            dims.append(BlockDim("squeezed", 1))
        elif _int(item) is not None:
            dims.append(BlockDim("blocked", _int(item)))
        elif isinstance(item, Static) and item.kind == "int":
            dims.append(BlockDim("blocked"))
        else:
            dims.append(BlockDim("unknown"))
    return tuple(dims)


def _squeezed(item: Value) -> bool:
    """``None`` and ``pl.squeezed`` in a block shape: a dimension of size 1 dropped from the ref."""
    if isinstance(item, Const):
        return item.value is None
    return isinstance(item, ModuleRef) and short_name(item.qualname) in _SQUEEZED_CONSTANTS


def _block_spec(node: ast.Call, bound: CallArguments) -> BlockSpecValue:
    shape = bound.get(0, "block_shape")
    index_map = bound.get(1, "index_map")
    space = bound.get(2, "memory_space")
    mode = bound.get(3, "pipeline_mode")
    whole = shape is None or (isinstance(shape, Const) and shape.value is None)
    block = None if whole else _block_dims(shape)  # type: ignore[arg-type]
    if mode is None or (isinstance(mode, Const) and mode.value is None):
        pipeline: Buffered | None = None
    else:
        pipeline = mode if isinstance(mode, Buffered) else Buffered(None)
    return BlockSpecValue(
        node=node,
        block=block,
        block_known=whole or block is not None,
        index_map=Const(None) if index_map is None else index_map,
        memory_space=None if space is None else memory_space(space),
        pipeline_mode=pipeline,
    )


def _grid_spec(node: ast.Call, name: str, bound: CallArguments) -> GridSpecValue:
    prefetch = name == "pltpu.PrefetchScalarGridSpec"
    offset = 1 if prefetch else 0
    names = ("grid", "in_specs", "out_specs", "scratch_shapes")
    values = {key: bound.get(offset + position, key) for position, key in enumerate(names)}
    exprs = {key: bound.expr(offset + position, key) for position, key in enumerate(names)}
    if prefetch:
        values["num_scalar_prefetch"] = bound.get(0, "num_scalar_prefetch")
        exprs["num_scalar_prefetch"] = bound.expr(0, "num_scalar_prefetch")
    count = values.get("num_scalar_prefetch") if prefetch else Const(0)
    grid = values["grid"]
    return GridSpecValue(
        node=node,
        tpu=prefetch,
        num_scalar_prefetch=count if count is not None else UNKNOWN,
        grid=Seq(()) if grid is None else grid,
        in_specs=values["in_specs"],
        out_specs=values["out_specs"],
        scratch_shapes=values["scratch_shapes"],
        keywords=tuple((key, expr) for key, expr in exprs.items() if expr is not None),
    )


def _evaluate(call: ApiCall) -> Value | None:
    return evaluate_call(call.qualname, call.node, call.args, call.keywords, call.recorded)


PALLAS_VALUES = InterpreterExtension("pallas", evaluate_call=_evaluate)
"""What the interpreter learns from this module: the values of Pallas API calls."""
