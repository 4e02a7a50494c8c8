"""JX401: a BlockSpec whose block shape has a different rank than the array it cuts."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import first_fitting
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.pallas.values import PALLAS_CALL_NAMES
from xlalens.analyzers.rules.jax._pallas import (
    block_anchor,
    call_site,
    operand_brief,
    operand_text,
    pallas_site,
    plural,
    shape_text,
)


@register_rule
class BlockRankDiffersFromArrayRank(Rule):
    """## What it does
    Finds a `pl.BlockSpec` passed to `pl.pallas_call` whose `block_shape` has more or fewer
    entries than the array it is used for (an operand in `in_specs`, an output in `out_specs`)
    has dimensions, when both ranks are known from the code.

    ## Why is this bad?
    A block shape needs one entry per array dimension: a size, or `None` (`pl.Squeezed()`) for a
    dimension the kernel does not split and does not see. With a different count JAX cannot tell
    which array axis each block size belongs to and raises `ValueError: Block shape for args[0]
    (= …) must have the same number of dimensions as the array shape …` when the call is traced.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def copy(x_ref, o_ref):
        o_ref[...] = x_ref[...]


    x = jnp.ones((16, 128))
    y = pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2,),
        in_specs=[pl.BlockSpec((8,), lambda i: (i,))],
        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
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


    x = jnp.ones((16, 128))
    y = pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2,),
        in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)),
        interpret=True,
    )(x)
    ```

    ## References
    - JAX docs: "Grids and BlockSpecs" (`docs/pallas/grid_blockspec.md`)
    - `jax/_src/pallas/core.py`, `BlockSpec.to_block_mapping`
    """

    code = "JX401"
    raises = ("ValueError",)
    message = "block shape rank differs from the array's rank"
    explainer = "pallas-blockspec#block-shapes-have-the-arrays-rank"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = PALLAS_CALL_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = pallas_site(ctx, node)
        if site is None:
            return
        for instance in site.instances:
            for use in instance.uses:
                rank = use.block_rank
                shape = use.operand.shape
                if rank is None or shape is None or rank == len(shape) or use.spec is None:
                    continue
                block = ", ".join(
                    "None" if dim.kind == "squeezed" else str(dim.size) if dim.size is not None else "?"
                    for dim in use.spec.block or ()
                )
                ctx.report(
                    block_anchor(use),
                    first_fitting(
                        f"block shape ({block}{',' if rank == 1 else ''}) has {plural(rank, 'dimension')} but "
                        f"{operand_brief(use)} has {len(shape)}",
                        f"block shape has {plural(rank, 'dimension')} but {operand_brief(use)} has {len(shape)}",
                    ),
                    detail=f"{operand_text(use)} has {plural(len(shape), 'dimension')}{instance.call_text()}: JAX "
                    f'raises "Block shape for {use.operand.label} … must have the same number of dimensions as the '
                    f'array shape {shape_text(shape)}." Give one block size per array dimension (None for a '
                    "dimension the kernel does not split).",
                    related=call_site(ctx, instance),
                )
