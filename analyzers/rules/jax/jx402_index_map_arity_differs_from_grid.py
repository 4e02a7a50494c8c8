"""JX402: an index map that cannot take one argument per grid axis (plus the scalar-prefetch refs)."""

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
    shape_text,
)


@register_rule
class IndexMapArityDiffersFromGrid(Rule):
    """## What it does
    Finds a `pl.BlockSpec` index map (a `lambda` or a local `def`) used by a `pl.pallas_call`
    that cannot be called with one argument per grid axis, plus one per scalar-prefetch operand
    when the grid comes from `pltpu.PrefetchScalarGridSpec(num_scalar_prefetch=n, …)`.

    ## Why is this bad?
    Pallas calls every index map with the grid indices of the current step, in grid-axis order,
    followed by the prefetched scalar refs. A map written for another grid raises `TypeError`
    (`missing 1 required positional argument` or `takes 1 positional argument but 2 were
    given`) when the call is traced. Often the grid gained or lost an axis and one of the specs
    was not updated.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def copy(x_ref, o_ref):
        o_ref[...] = x_ref[...]


    x = jnp.ones((16, 256))
    y = pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2, 2),
        in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
        out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, j)),
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


    x = jnp.ones((16, 256))
    y = pl.pallas_call(
        copy,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2, 2),
        in_specs=[pl.BlockSpec((8, 128), lambda i, j: (i, j))],
        out_specs=pl.BlockSpec((8, 128), lambda i, j: (i, j)),
        interpret=True,
    )(x)
    ```

    An index map that ignores some grid indices still takes them: name them `_` or collect them
    with `*_`.

    ## References
    - JAX docs: "Grids and BlockSpecs" (`docs/pallas/grid_blockspec.md`)
    - JAX docs: "Scalar prefetch and block-sparse computation" (`docs/pallas/tpu/sparse.md`)
    """

    code = "JX402"
    raises = ("TypeError",)
    message = "index map takes a different number of arguments than the grid has axes"
    explainer = "pallas-blockspec#index-maps-take-one-index-per-grid-axis"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = PALLAS_CALL_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = pallas_site(ctx, node)
        if site is None:
            return
        for instance in site.instances:
            grid, prefetch = instance.grid, instance.prefetch_count
            if grid is None or prefetch is None:
                continue
            expected = len(grid) + prefetch
            for use in instance.uses:
                info = use.index_map
                if info is None or info.accepts(expected) is not False:
                    continue
                takes = plural(len(info.params), "argument")
                if info.max_args is None or info.min_args != info.max_args:
                    takes = f"{info.min_args} to {'any number' if info.max_args is None else info.max_args} arguments"
                refs = f" and {plural(prefetch, 'scalar-prefetch operand')}" if prefetch else ""
                if info.min_args is not None and expected < info.min_args:
                    error = f"missing {info.min_args - expected} required positional argument"
                else:
                    error = f"takes {plural(len(info.params), 'positional argument')} but {expected} were given"
                name = shorten(info.name)
                axes = plural(len(grid), "axis")
                ctx.report(
                    index_map_anchor(use),
                    first_fitting(
                        f"index map `{name}` for {operand_name(use)} takes {takes} but grid {shape_text(grid)} has "
                        f"{axes}{refs}",
                        f"index map `{name}` takes {takes} but grid {shape_text(grid)} has {axes}{refs}",
                        f"index map `{name}` takes {takes} but is called with {expected}",
                    ),
                    detail=f"The index map `{info.name}` for {use.operand.label} (`{use.operand.text}`) gets one "
                    f"index per grid axis: the grid {shape_text(grid)} has {axes}{refs}{instance.call_text()}, so "
                    f"Pallas calls it with {expected} and JAX raises TypeError ({error}). Take one index per grid "
                    "axis (name unused ones `_`).",
                    related=call_site(ctx, instance),
                )
