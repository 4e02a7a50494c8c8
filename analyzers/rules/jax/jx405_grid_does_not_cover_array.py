"""JX405: a grid that never visits part of an output (or drops the tail of an input)."""

from __future__ import annotations

import ast
import math
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix, first_fitting
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.pallas.model import SpecUse
from xlalens.analyzers.models.pallas.values import PALLAS_CALL_NAMES
from xlalens.analyzers.rules.jax._pallas import (
    call_site,
    grid_element,
    index_map_anchor,
    operand_brief,
    operand_name,
    operand_text,
    pallas_alias,
    pallas_site,
    shape_text,
)
from xlalens.explainers.calculators.blockspec import AxisBlocks, BlockSpecResult
from xlalens.explainers.calculators.units import format_count


@register_rule
class GridDoesNotCoverArray(Rule):
    """## What it does
    Finds a `pl.pallas_call` whose grid and index map leave blocks of an output that no grid step
    writes, or that stop one block short of the end of an input whose size is not a multiple of
    the block (the grid was computed with `//` instead of `pl.cdiv`). Outputs aliased to an input
    (`input_output_aliases`) are not reported: their unwritten part keeps the input's values.

    ## Why is this bad?
    A kernel only touches the blocks its index maps return. An output block that no step writes
    keeps whatever the output buffer held — uninitialised memory on a TPU or GPU — and nothing
    fails. An input whose last, partial block is never read is silently left out of the result;
    `n // block` grid steps cover only whole blocks.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def double(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 2


    x = jnp.ones((1000, 128))
    spec = pl.BlockSpec((192, 128), lambda i: (i, 0))
    y = pl.pallas_call(
        double,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(1000 // 192,),
        in_specs=[spec],
        out_specs=spec,
        interpret=True,
    )(x)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def double(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 2


    x = jnp.ones((1000, 128))
    spec = pl.BlockSpec((200, 128), lambda i: (i, 0))
    y = pl.pallas_call(
        double,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(pl.cdiv(1000, 200),),
        in_specs=[spec],
        out_specs=spec,
        interpret=True,
    )(x)
    ```

    ## Fix safety
    The fix is a suggestion, shown and never applied: it writes the grid entry as
    `pl.cdiv(n, block)` (or the number of blocks). With a block that does not divide the array,
    the last block then reads padding (see JX404), which the kernel may need to mask.

    ## References
    - JAX docs: "Grids and BlockSpecs" (`docs/pallas/grid_blockspec.md`)
    - `pl.cdiv` (`jax/_src/pallas/utils.py`)
    """

    code = "JX405"
    message = "grid does not cover the array"
    explainer = "pallas-blockspec#grids-that-do-not-cover-the-array"
    calculator = "blockspec"
    fix_title = "Use pl.cdiv for the grid"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = PALLAS_CALL_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = pallas_site(ctx, node)
        if site is None:
            return
        for instance in site.instances:
            # Outputs first: when an input and an output share the grid entry, "never written" is the finding.
            for use in sorted(instance.uses, key=lambda use: not use.is_output):
                if use.memory_space not in (None, "vmem", "smem") or (use.is_output and use.aliased):
                    continue
                result = use.result(dtype_fallback=True)
                # Blocks past the end are JX406's finding; the coverage they leave is a symptom.
                if result is None or not result.uncovered_elements or any(a.past_end for a in result.axes):
                    continue
                short = [a for a in result.axes if a.in_range < a.needed]
                if not use.is_output:
                    short = [a for a in short if self.floor_division(a)]
                if short:
                    self.report(use, result, short, ctx)

    @staticmethod
    def floor_division(axis: AxisBlocks) -> bool:
        """An input axis walked from block 0 that stops one block short of a partial last block: ``n // block``."""
        return (
            not axis.constant
            and axis.exact
            and axis.padded > 0
            and axis.low == 0
            and axis.high == axis.needed - 2
            and axis.in_range == axis.needed - 1
        )

    def report(self, use: SpecUse, result: BlockSpecResult, axes: list[AxisBlocks], ctx: CheckContext) -> None:
        instance = use.instance
        verb = "written" if use.is_output else "read"
        detail = "; ".join(
            f"along axis {a.axis} the steps take {a.in_range} of the {a.needed} blocks of {a.block} "
            f"(cdiv({a.size}, {a.block}) = {a.needed}; block indices {a.low}-{a.high})"
            for a in axes
        )
        why = "those elements keep whatever the output buffer held" if use.is_output else "the kernel never sees them"
        where, fix = self.grid_fix(use, axes, ctx)
        total = math.prod(result.array)
        never = f"{format_count(result.uncovered_elements)} of {format_count(total)} elements of"
        by = f"are never {verb} by grid {shape_text(result.grid)}"
        ctx.report(
            where,
            first_fitting(
                f"{never} {operand_brief(use)} {by}",
                f"{never} {operand_name(use)} {by}",
                f"{never} {operand_name(use)} are never {verb}",
            ),
            detail=f"For {operand_text(use)} with block {shape_text(result.block)} and grid "
            f"{shape_text(result.grid)}{instance.call_text()}, {detail}; {why}. Make the grid cover the array "
            "(pl.cdiv).",
            fix=fix,
            related=call_site(ctx, instance),
            calculator=use.link_inputs(),
        )

    @staticmethod
    def grid_fix(use: SpecUse, axes: list[AxisBlocks], ctx: CheckContext) -> tuple[ast.AST, Fix | None]:
        """Where to report (the grid entry that walks the short axis) and the ``pl.cdiv`` suggestion."""
        info = use.index_map
        fallback = index_map_anchor(use)
        if info is None or len(axes) != 1 or axes[0].constant or info.returned is None:
            return fallback, None
        axis = axes[0]
        if not (axis.low == 0 and axis.high == axis.in_range - 1):
            return fallback, None  # gaps or a late start: the index map is at fault, not the grid's size
        names = {n.id for n in ast.walk(info.returned[axis.axis]) if isinstance(n, ast.Name)}
        walked = [k for k, name in enumerate(info.params[: len(use.instance.grid or ())]) if name in names]
        if len(walked) != 1:
            return fallback, None
        element = grid_element(use.instance, walked[0])
        if element is None:
            return fallback, None
        alias = pallas_alias(ctx)
        if isinstance(element, ast.BinOp) and isinstance(element.op, ast.FloorDiv) and alias is not None:
            text = f"{alias}.cdiv({ctx.segment(element.left)}, {ctx.segment(element.right)})"
        elif isinstance(element, ast.Constant):
            text = str(axis.needed)
        else:
            return element, None
        return element, ctx.fix(f"Use `{text}` for the grid", Applicability.DISPLAY_ONLY, [ctx.edit(element, text)])
