"""JX404: a block that does not divide the array, so the kernel reads padding in its last block."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix, Severity, first_fitting
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.pallas.model import SpecUse
from xlalens.analyzers.models.pallas.values import PALLAS_CALL_NAMES
from xlalens.analyzers.rules.jax._pallas import (
    block_anchor,
    block_element,
    call_site,
    operand_brief,
    operand_name,
    operand_text,
    pallas_site,
    shape_text,
    tile_multiple,
    tiling_sizes,
)
from xlalens.explainers.calculators.blockspec import AxisBlocks, BlockSpecResult
from xlalens.explainers.calculators.units import format_count


@register_rule
class BlockDoesNotDivideArray(Rule):
    """## What it does
    Finds a `pl.BlockSpec` for a `pl.pallas_call` operand whose block size along some axis does
    not divide the array's size there, when the grid visits that last, partial block. The message
    says how many padding elements the kernel reads; its detail gives the last block's span and a
    block size that divides the axis.

    ## Why is this bad?
    Every block has the full block shape, also the last one. Where it hangs over the end of the
    array the kernel reads padding: unspecified values on a TPU or GPU (NaN in interpret mode).
    Elementwise kernels are unaffected, because Pallas drops the writes that fall outside the
    output, but anything that combines values across the block — a sum, a max, a softmax, a
    matmul over that axis — silently mixes the padding into real results.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def row_sum(x_ref, o_ref):
        o_ref[...] = jnp.sum(x_ref[...], axis=0, keepdims=True)


    x = jnp.ones((1000, 128))
    y = pl.pallas_call(
        row_sum,
        out_shape=jax.ShapeDtypeStruct((6, 128), x.dtype),
        grid=(pl.cdiv(1000, 192),),
        in_specs=[pl.BlockSpec((192, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((1, 128), lambda i: (i, 0)),
        interpret=True,
    )(x)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def row_sum(x_ref, o_ref):
        o_ref[...] = jnp.sum(x_ref[...], axis=0, keepdims=True)


    x = jnp.ones((1000, 128))
    y = pl.pallas_call(
        row_sum,
        out_shape=jax.ShapeDtypeStruct((5, 128), x.dtype),
        grid=(pl.cdiv(1000, 200),),
        in_specs=[pl.BlockSpec((200, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((1, 128), lambda i: (i, 0)),
        interpret=True,
    )(x)
    ```

    When no good divisor exists, keep the block and mask the tail inside the kernel (compare
    `pl.program_id(0) * block + iota` with the array's size). Add `# noqa: JX404` where the
    kernel already does.

    ## Fix safety
    The fix is a suggestion, shown and never applied: it replaces the block size with the nearest
    one that divides the axis (and, for kernels compiled for TPU, is a multiple of 8 or 128 on the
    last two axes). The grid and the output shape may need the same change.

    ## References
    - JAX docs: "Grids and BlockSpecs", blocks that do not divide the array (`docs/pallas/grid_blockspec.md`)
    """

    code = "JX404"
    message = "block does not divide the array: the last block reads padding"
    explainer = "pallas-blockspec#blocks-that-do-not-divide-the-array"
    calculator = "blockspec"
    severity = Severity.WARNING
    fix_title = "Use a block size that divides the array"
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
                # Padding in an output block is dropped on the way out; only reads of it matter.
                if use.is_output or use.memory_space not in (None, "vmem", "smem"):
                    continue
                result = use.result(dtype_fallback=True)
                if result is None or any(axis.past_end for axis in result.axes):
                    continue
                padded = [
                    a for a in result.axes if a.padded and a.last_visited and a.exact and not result.squeezed[a.axis]
                ]
                if padded:
                    self.report(use, result, padded, ctx)

    def report(self, use: SpecUse, result: BlockSpecResult, axes: list[AxisBlocks], ctx: CheckContext) -> None:
        instance = use.instance
        spans = "; ".join(
            f"along axis {a.axis} the last block (index {a.needed - 1}) spans elements {a.last_start}-{a.last_end} "
            f"of {a.size}, {a.padded} of them past the end"
            for a in axes
        )
        suggestions = self.suggestions(use, axes, instance.targets_tpu)
        advice = (
            "; ".join(f"use {size} along axis {dim} (divides {result.array[dim]})" for dim, size, _ in suggestions)
            or "use block sizes that divide the array"
        )
        block = shape_text(result.block)
        padding = f"{format_count(result.padded_elements)} padding elements are read"
        ctx.report(
            block_anchor(use),
            first_fitting(
                f"block {block} does not divide {operand_brief(use)}; {padding}",
                f"block {block} does not divide {operand_name(use)}; {padding}",
                f"block does not divide {operand_name(use)}; {padding}",
            ),
            detail=f"For {operand_text(use)}{instance.call_text()}, {spans}. The kernel reads that padding "
            "(unspecified values, NaN in interpret mode), and writes past the end are dropped. "
            f"{advice[0].upper()}{advice[1:]}, or mask the tail in the kernel.",
            fix=self.fix(suggestions, ctx),
            related=call_site(ctx, instance),
            calculator=use.link_inputs(),
        )

    @staticmethod
    def suggestions(use: SpecUse, axes: list[AxisBlocks], tpu: bool) -> list[tuple[int, int, ast.expr | None]]:
        """(axis, dividing size, the block-shape entry to replace) for each padded axis that has one."""
        found = []
        rank = len(use.operand.shape or ())
        for axis in axes:
            dividing, _ = tiling_sizes(axis.size, axis.block, tile_multiple(rank, axis.axis, tpu))
            if dividing is not None and dividing != axis.block:
                found.append((axis.axis, dividing, block_element(use, axis.axis)))
        return found

    @staticmethod
    def fix(suggestions: list[tuple[int, int, ast.expr | None]], ctx: CheckContext) -> Fix | None:
        edits = [ctx.edit(element, str(size)) for _, size, element in suggestions if element is not None]
        if not edits or len(edits) != len(suggestions):
            return None
        sizes = ", ".join(str(size) for _, size, _ in suggestions)
        return ctx.fix(f"Use block size {sizes}", Applicability.DISPLAY_ONLY, edits)
