"""JX407: a block shape the Pallas TPU lowering rejects: last two dimensions not multiples of 8 and 128."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix, first_fitting
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
    tiling_sizes,
)
from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.blockspec import LANES, SUBLANES, BlockSpecResult

_RANK_2 = (
    "The Pallas TPU lowering currently requires that the last two dimensions of your block shape are divisible by "
    "8 and 128 respectively, or be equal to the respective dimensions of the overall array."
)
_RANK_1 = "The Pallas TPU lowering currently requires that rank 1 block shapes, either 1) the first (and only) …"


@register_rule
class BlockShapeBreaksTpuTiling(Rule):
    """## What it does
    Finds a `pl.BlockSpec` of a `pl.pallas_call` compiled for TPU whose block shape breaks the
    TPU's tiling rule: the last block dimension must be a multiple of 128 and the second-to-last
    a multiple of 8, unless each equals the array's dimension; a rank-1 block must equal the
    array, be a multiple of 1024, or be a power of 2 of at least `128 · (32 // bits)`. A call is
    compiled for TPU when its compiler params are `pltpu.CompilerParams`, it uses a
    TPU-only grid spec or scratch shape, the configuration says `target = "tpu"`, or the file
    imports `jax.experimental.pallas.tpu` and no GPU Pallas backend; never in interpret mode.

    ## Why is this bad?
    Mosaic lays a block out in VMEM as (8, 128) tiles of 32-bit words (sublanes by lanes). A
    block that does not fill whole tiles is rejected when the kernel is lowered for TPU: `ValueError:
    The Pallas TPU lowering currently requires that the last two dimensions of your block shape
    are divisible by 8 and 128 respectively, or be equal to the respective dimensions of the
    overall array.` The code runs on CPU in interpret mode and fails on the first TPU run.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu


    def copy(x_ref, o_ref):
        o_ref[...] = x_ref[...]


    x = jax.ShapeDtypeStruct((250, 512), jnp.float32)
    spec = pl.BlockSpec((100, 256), lambda i, j: (i, j))
    call = pl.pallas_call(copy, out_shape=x, grid=(3, 2), in_specs=[spec], out_specs=spec)
    exported = jax.export.export(jax.jit(call), platforms=["tpu"])(x)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu


    def copy(x_ref, o_ref):
        o_ref[...] = x_ref[...]


    x = jax.ShapeDtypeStruct((250, 512), jnp.float32)
    spec = pl.BlockSpec((250, 256), lambda i, j: (0, j))
    call = pl.pallas_call(copy, out_shape=x, grid=(1, 2), in_specs=[spec], out_specs=spec)
    exported = jax.export.export(jax.jit(call), platforms=["tpu"])(x)
    ```

    ## Fix safety
    The fix is a suggestion, shown and never applied: the nearest size that satisfies the rule,
    preferring one that divides the array (so the last block does not read padding). The grid
    may need to change with it.

    ## Options
    `target = "tpu"` in `[tool.xlalens]` checks files that do not import `pallas.tpu`.

    ## References
    - JAX docs: "Grids and BlockSpecs", TPU note (`docs/pallas/grid_blockspec.md`)
    - `jax/_src/pallas/mosaic/lowering.py`, `_check_block_mappings`
    """

    code = "JX407"
    raises = ("ValueError",)
    message = "block shape breaks the TPU (8, 128) tiling rule"
    explainer = "pallas-blockspec#the-tpu-block-shape-rule"
    calculator = "blockspec"
    fix_title = "Use a block size the TPU accepts"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = PALLAS_CALL_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = pallas_site(ctx, node)
        if site is None:
            return
        for instance in site.instances:
            if not instance.targets_tpu:
                continue
            for use in instance.uses:
                if use.memory_space not in (None, "vmem") or use.whole_array():
                    continue
                shape = use.operand.shape
                rank = len(shape) if shape is not None else 0
                # Rank 2 and up: the rule does not depend on the dtype; rank 1 needs its bit width. It
                # does not depend on the grid or the index map either.
                result = use.shape_result(dtype_fallback=rank >= 2)
                if result is None or not result.tiling_problems:
                    continue
                if use.operand.dtype is not None and dtypes.lookup(result.dtype).bits > 32:
                    continue
                self.report(use, result, ctx)

    def report(self, use: SpecUse, result: BlockSpecResult, ctx: CheckContext) -> None:
        instance = use.instance
        rank = len(result.block)
        quoted = _RANK_2 if rank >= 2 else _RANK_1
        suggestions = self.suggestions(use, result)
        advice = "; ".join(f"use {size} along axis {dim}" for dim, size, _ in suggestions)
        block = shape_text(result.block)
        breaks = f"breaks the TPU tiling rule{self.why(result)}"
        ctx.report(
            block_anchor(use),
            first_fitting(
                f"block {block} for {operand_brief(use)} {breaks}",
                f"block {block} for {operand_name(use)} {breaks}",
                f"block {block} for {operand_name(use)} breaks the TPU tiling rule",
            ),
            detail=f"For {operand_text(use)}{instance.call_text()}: {'; '.join(result.tiling_problems)}. Lowering "
            f'for TPU raises ValueError: "{quoted}"' + (f" {advice[0].upper()}{advice[1:]}." if advice else ""),
            fix=self.fix(suggestions, ctx),
            related=call_site(ctx, instance),
            calculator=use.link_inputs(),
        )

    @staticmethod
    def why(result: BlockSpecResult) -> str:
        """``: 100 is not a multiple of 8`` for the block dimensions of rank 2 and up that break the rule."""
        rank = len(result.block)
        if rank < 2:
            return ""
        broken = [
            f"{result.block[dim]} is not a multiple of {multiple}"
            for dim, multiple in ((rank - 2, SUBLANES), (rank - 1, LANES))
            if result.block[dim] != result.array[dim] and result.block[dim] % multiple
        ]
        return ": " + ", ".join(broken) if broken else ""

    @staticmethod
    def suggestions(use: SpecUse, result: BlockSpecResult) -> list[tuple[int, int, ast.expr | None]]:
        """(axis, size, the block-shape entry) for each of the last two axes that breaks the rule."""
        rank = len(result.block)
        if rank < 2:
            return []
        found = []
        for dim, multiple in ((rank - 2, SUBLANES), (rank - 1, LANES)):
            size, block = result.array[dim], result.block[dim]
            if block == size or block % multiple == 0:
                continue
            dividing, nearest = tiling_sizes(size, block, multiple)
            choice = dividing if dividing is not None and dividing <= 2 * max(block, multiple) else nearest
            if choice is not None:
                found.append((dim, choice, block_element(use, dim)))
        return found

    @staticmethod
    def fix(suggestions: list[tuple[int, int, ast.expr | None]], ctx: CheckContext) -> Fix | None:
        edits = [ctx.edit(element, str(size)) for _, size, element in suggestions if element is not None]
        if not edits or len(edits) != len(suggestions):
            return None
        sizes = ", ".join(f"{size} (axis {dim})" for dim, size, _ in suggestions)
        return ctx.fix(f"Use block size {sizes}", Applicability.DISPLAY_ONLY, edits)
