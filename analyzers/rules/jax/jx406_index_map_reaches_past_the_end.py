"""JX406: an index map that returns block indices past the end of the array (often element offsets)."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix, first_fitting, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.pallas.model import SpecUse
from xlalens.analyzers.models.pallas.values import PALLAS_CALL_NAMES
from xlalens.analyzers.rules.jax._pallas import (
    call_site,
    index_map_anchor,
    operand_brief,
    operand_name,
    operand_text,
    pallas_site,
    shape_text,
)
from xlalens.explainers.calculators.blockspec import AxisBlocks, BlockSpecResult


@register_rule
class IndexMapReachesPastTheEnd(Rule):
    """## What it does
    Finds a `pl.BlockSpec` whose index map, evaluated over the `pl.pallas_call` grid, returns a
    block index at or beyond `cdiv(size, block)` (or below 0) along some axis: the block it names
    lies outside the array. The common cause is an index map that returns element offsets
    (`i * 128`) where Pallas expects block indices (`i`).

    ## Why is this bad?
    Pallas multiplies the index map's result by the block size to find where a block starts, so
    `lambda i: (i * 128, 0)` with 128-row blocks asks for row `128 * 128 * i`. JAX does not check
    block indices against the array when it traces the call: in interpret mode the start is
    clamped, so the last block is read (or written) again and again — duplicated data and
    unwritten blocks — and a compiled kernel asks for a block outside the array. Nothing raises
    at trace time.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def copy(x_ref, o_ref):
        o_ref[...] = x_ref[...]


    x = jnp.ones((512, 128))
    y = pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(4,),
        in_specs=[pl.BlockSpec((128, 128), lambda i: (i * 128, 0))],
        out_specs=pl.BlockSpec((128, 128), lambda i: (i, 0)),
        interpret=True,
    )(x)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def copy(x_ref, o_ref):
        o_ref[...] = x_ref[...]


    x = jnp.ones((512, 128))
    y = pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(4,),
        in_specs=[pl.BlockSpec((128, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((128, 128), lambda i: (i, 0)),
        interpret=True,
    )(x)
    ```

    ## Fix safety
    When the index is exactly a grid index times the block size (`i * 128` with 128-row
    blocks), the fix returns the grid index instead. It is unsafe: if the map was meant to return
    element offsets, the block shape should use `pl.Element` instead.

    ## References
    - JAX docs: "Grids and BlockSpecs" (`docs/pallas/grid_blockspec.md`)
    """

    code = "JX406"
    message = "index map returns block indices past the end of the array"
    explainer = "pallas-blockspec#index-maps-return-block-indices"
    calculator = "blockspec"
    fix_title = "Return the block index, not the element offset"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = PALLAS_CALL_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = pallas_site(ctx, node)
        if site is None:
            return
        for instance in site.instances:
            for use in instance.uses:
                if use.memory_space not in (None, "vmem", "smem"):
                    continue
                result = use.result(dtype_fallback=True)
                if result is None:
                    continue
                beyond = [a for a in result.axes if a.past_end]
                if beyond:
                    self.report(use, result, beyond, ctx)

    def report(self, use: SpecUse, result: BlockSpecResult, axes: list[AxisBlocks], ctx: CheckContext) -> None:
        instance = use.instance
        info = use.index_map
        details = []
        offsets: list[tuple[ast.BinOp, str]] = []
        for axis in axes:
            index = axis.high if axis.high >= axis.needed else axis.low
            details.append(
                f"along axis {axis.axis} it returns block index {index} (element {index * axis.block}) but "
                f"cdiv({axis.size}, {axis.block}) = {axis.needed} blocks exist (indices 0-{axis.needed - 1})"
            )
            element = info.returned[axis.axis] if info is not None and info.returned is not None else None
            offset = self.element_offset(element, axis, use)
            if offset is not None:
                offsets.append(offset)
        where: ast.AST = index_map_anchor(use)
        hint = ""
        if offsets:
            hint = "; it returns element offsets instead of block indices: " + ", ".join(
                f"`{ctx.segment(binop)}` should be `{name}`" for binop, name in offsets
            )
            if len(offsets) == 1:
                where = offsets[0][0]
        steps = f"{result.past_end_steps} of {result.steps}" if result.past_end_steps else "some"
        reaches = f"reaches past the end in {steps} steps"
        should = ""
        if len(offsets) == 1:
            binop, name = offsets[0]
            should = f": `{shorten(ctx.segment(binop))}` should be `{name}`"
        ctx.report(
            where,
            first_fitting(
                f"index map for {operand_brief(use)} {reaches}{should}",
                f"index map for {operand_brief(use)} {reaches}",
                f"index map for {operand_name(use)} {reaches}",
            ),
            detail=f"The index map for {operand_text(use)} with block {shape_text(result.block)} and grid "
            f"{shape_text(result.grid)}{instance.call_text()}: {'; '.join(details)}{hint}. JAX does not check "
            "this when it traces the call: interpret mode clamps the start and reuses the last block, and on an "
            "accelerator the block lies outside the array.",
            fix=self.fix(offsets, ctx),
            related=call_site(ctx, instance),
            calculator=use.link_inputs(),
        )

    @staticmethod
    def element_offset(element: ast.expr | None, axis: AxisBlocks, use: SpecUse) -> tuple[ast.BinOp, str] | None:
        """``(i * block, "i")`` when the returned index is exactly a grid index times the block size."""
        info = use.index_map
        if info is None or not isinstance(element, ast.BinOp) or not isinstance(element.op, ast.Mult):
            return None
        for param, factor in ((element.left, element.right), (element.right, element.left)):
            if not isinstance(param, ast.Name) or param.id not in info.params[: len(use.instance.grid or ())]:
                continue
            value = factor.value if isinstance(factor, ast.Constant) else None
            if isinstance(factor, ast.Name) and info.scope is not None:
                value = use.instance.name_lookup(factor.id, info.scope)
            if value == axis.block and axis.block > 1:
                return element, param.id
        return None

    @staticmethod
    def fix(offsets: list[tuple[ast.BinOp, str]], ctx: CheckContext) -> Fix | None:
        if not offsets:
            return None
        edits = [ctx.edit(binop, name) for binop, name in offsets]
        names = ", ".join(f"`{name}`" for _, name in offsets)
        return ctx.fix(f"Return the block index {names}", Applicability.UNSAFE, edits)
