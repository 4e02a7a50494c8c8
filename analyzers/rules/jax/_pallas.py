"""What the Pallas rules (JX4xx) share: finding the model's call site, where to report, and how to word numbers."""

from __future__ import annotations

import ast
import math

from xlalens.analyzers.core.diagnostics import SHORT_SOURCE, RelatedLocation
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.models.pallas.model import Operand, PallasInstance, PallasSite, SpecUse, pallas_model
from xlalens.analyzers.models.pallas.values import BlockSpecValue
from xlalens.analyzers.semantics.values import Dim
from xlalens.explainers.calculators import dtypes

_MAX_FACTORED = 1 << 36


def pallas_site(ctx: CheckContext, node: ast.AST) -> PallasSite | None:
    """The ``pallas_call`` site ``node`` is, if it is one."""
    if not isinstance(node, ast.Call):
        return None
    settings = ctx.settings
    model = pallas_model(ctx.index, ctx.interpreter, ctx.source.text, settings.tpu_generation, settings.target)
    return model.site_at(node)


def spec_argument(spec: BlockSpecValue, position: int, name: str) -> ast.expr | None:
    """The expression passed to ``pl.BlockSpec`` for ``block_shape`` (0) or ``index_map`` (1)."""
    for keyword in spec.node.keywords:
        if keyword.arg == name:
            return keyword.value
    args = spec.node.args
    if any(isinstance(arg, ast.Starred) for arg in args[: position + 1]):
        return None
    return args[position] if position < len(args) else None


def block_anchor(use: SpecUse) -> ast.AST:
    """Where a finding about a block shape goes: its ``block_shape`` argument when the BlockSpec is
    written in this call, else the spec's entry in the call (a spec shared by name may be fine in
    its other uses)."""
    if use.spec is None:
        return use.operand.expr
    if not use.defined_here:
        return use.expr or use.instance.site.node.func
    return spec_argument(use.spec, 0, "block_shape") or use.spec.node


def index_map_anchor(use: SpecUse) -> ast.AST:
    """Where a finding about an index map goes: like :func:`block_anchor`, for ``index_map``."""
    if use.spec is None:
        return use.operand.expr
    if not use.defined_here:
        return use.expr or use.instance.site.node.func
    return spec_argument(use.spec, 1, "index_map") or use.spec.node


def block_element(use: SpecUse, dim: int) -> ast.expr | None:
    """The literal entry of ``block_shape`` for dimension ``dim``, when the block shape is written out."""
    if use.spec is None:
        return None
    shape = spec_argument(use.spec, 0, "block_shape")
    if not isinstance(shape, ast.Tuple | ast.List) or any(isinstance(e, ast.Starred) for e in shape.elts):
        return None
    return shape.elts[dim] if dim < len(shape.elts) else None


def grid_element(instance: PallasInstance, axis: int) -> ast.expr | None:
    """The literal entry of the grid for grid axis ``axis``, when the grid is written out."""
    expr = instance.grid_expr
    if isinstance(expr, ast.Tuple | ast.List) and not any(isinstance(e, ast.Starred) for e in expr.elts):
        return expr.elts[axis] if axis < len(expr.elts) else None
    return expr if axis == 0 and instance.grid is not None and len(instance.grid) == 1 else None


def tile_multiple(rank: int, dim: int, tpu: bool) -> int:
    """What the TPU rule wants block dimension ``dim`` to be a multiple of: 128 last, 8 second-to-last.

    Off TPU (and for rank 1, whose rule is different) any size will do.
    """
    if not tpu or rank < 2:
        return 1
    return {rank - 1: 128, rank - 2: 8}.get(dim, 1)


def shape_text(shape: tuple[Dim, ...] | tuple[int, ...]) -> str:
    """A shape as Python writes it: ``(8, 128)``, ``(1000,)``."""
    parts = ["?" if size is None else str(size) for size in shape]
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def array_text(operand: Operand) -> str:
    """``f32[1000,128]`` for an operand, ``?`` where unknown."""
    return dtypes.aval(operand.dtype, operand.shape)


def operand_text(use: SpecUse) -> str:
    """``args[0] (`x`, f32[1000,128])``."""
    return f"{use.operand.label} (`{use.operand.text}`, {array_text(use.operand)})"


def operand_name(use: SpecUse) -> str:
    """The operand as a headline names it: the user's expression (```x```) when it is short, else its
    label (``outputs`` for ``jax.ShapeDtypeStruct(x.shape, x.dtype)``)."""
    text = use.operand.text
    return f"`{text}`" if len(text) <= SHORT_SOURCE else use.operand.label


def operand_brief(use: SpecUse) -> str:
    """```x` (f32[1000,128])`` for a headline: :func:`operand_name` and the array."""
    return f"{operand_name(use)} ({array_text(use.operand)})"


def plural(count: int, word: str) -> str:
    """``1 axis``, ``2 axes``; ``word`` is the singular."""
    irregular = {"axis": "axes", "index": "indices"}
    return f"{count} {word if count == 1 else irregular.get(word, word + 's')}"


def call_site(ctx: CheckContext, instance: PallasInstance) -> list[RelatedLocation]:
    """The call of the wrapper function whose arguments gave the shapes, as a related location."""
    if instance.via is None:
        return []
    arguments = ", ".join(ctx.segment(arg) for arg in instance.via.args)
    return [
        RelatedLocation(
            ctx.path,
            ctx.source.node_range(instance.via),
            f"the shapes come from this call: `{ctx.segment(instance.via.func)}({arguments})`",
        )
    ]


def pallas_alias(ctx: CheckContext) -> str | None:
    """The name the module imports ``jax.experimental.pallas`` as (``pl``), if it does."""
    for name, bindings in ctx.index.module_scope.bindings.items():
        if len(bindings) == 1 and bindings[0].qualname == "jax.experimental.pallas":
            return name
    return None


def tiling_sizes(size: int, block: int, multiple: int) -> tuple[int | None, int | None]:
    """Block sizes near ``block`` for an axis of ``size`` that are a multiple of ``multiple`` or the whole axis.

    Returns the nearest that also divides ``size`` (``None`` for axes too long to factor) and the
    nearest at all. ``multiple`` is 128 for the last block dimension and 8 for the one before it
    (the TPU rule), 1 for the others.

    Examples:
        >>> tiling_sizes(1000, 192, 8)
        (200, 192)
        >>> tiling_sizes(250, 100, 8)
        (250, 96)
        >>> tiling_sizes(1000, 100, 128)
        (1000, 128)
    """
    below = block // multiple * multiple
    valid = [s for s in (below, below + multiple, size) if 0 < s <= size]
    dividing: list[int] = []
    if size <= _MAX_FACTORED:
        root = math.isqrt(size)
        for low in range(1, root + 1):
            if size % low == 0:
                dividing.extend(s for s in (low, size // low) if s % multiple == 0 or s == size)

    def nearest(candidates: list[int]) -> int | None:
        return min(candidates, key=lambda s: (abs(s - block), s)) if candidates else None

    return nearest(dividing), nearest(valid)
