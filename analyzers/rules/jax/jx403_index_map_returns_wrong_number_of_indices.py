"""JX403: an index map that returns a different number of indices than the block has dimensions."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import first_fitting, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.pallas.values import PALLAS_CALL_NAMES
from xlalens.analyzers.rules.jax._pallas import (
    call_site,
    index_map_anchor,
    operand_name,
    pallas_site,
    plural,
)


@register_rule
class IndexMapReturnsWrongNumberOfIndices(Rule):
    """## What it does
    Finds a `pl.BlockSpec` whose index map returns a tuple with more or fewer entries than the
    block shape has dimensions (the array's rank when `block_shape` is `None`).

    ## Why is this bad?
    The index map returns one block index per block dimension: Pallas multiplies each by the
    block size along that dimension to find where the block starts. With a different count JAX
    raises `ValueError: Index map function … must return 2 values to match block_shape=(…).
    Currently returning 1 values` when the call is traced.

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
        in_specs=[pl.BlockSpec((8, 128), lambda i: (i,))],
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

    Return `0` for a dimension the grid does not walk (its one block covers the whole axis).

    ## References
    - JAX docs: "Grids and BlockSpecs" (`docs/pallas/grid_blockspec.md`)
    - `jax/_src/pallas/core.py`, `BlockSpec.to_block_mapping`
    """

    code = "JX403"
    raises = ("ValueError",)
    message = "index map returns a different number of indices than the block has dimensions"
    explainer = "pallas-blockspec#index-maps-return-one-index-per-block-dimension"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = PALLAS_CALL_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = pallas_site(ctx, node)
        if site is None:
            return
        for instance in site.instances:
            for use in instance.uses:
                info = use.index_map
                if info is None or info.returns is None or use.spec is None:
                    continue
                rank = use.block_rank
                if rank is None and use.spec.block_known and use.operand.shape is not None:
                    rank = len(use.operand.shape)
                if rank is None or rank == info.returns:
                    continue
                ctx.report(
                    index_map_anchor(use),
                    first_fitting(
                        f"index map `{shorten(info.name)}` for {operand_name(use)} returns "
                        f"{plural(info.returns, 'index')} but the block has {plural(rank, 'dimension')}",
                        f"index map returns {plural(info.returns, 'index')} but the block has "
                        f"{plural(rank, 'dimension')}",
                    ),
                    detail=f"The index map `{info.name}` for {use.operand.label} (`{use.operand.text}`) must return "
                    f'one block index per block dimension{instance.call_text()}: JAX raises "Index map function '
                    f"{info.name} … for {use.operand.label} must return {rank} values to match block_shape=(…). "
                    f'Currently returning {info.returns} values". Return one block index per block dimension (0 '
                    "where the block spans the whole axis).",
                    related=call_site(ctx, instance),
                )
