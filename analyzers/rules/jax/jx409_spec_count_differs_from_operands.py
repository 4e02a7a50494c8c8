"""JX409: ``in_specs`` that do not match the operands, or ``out_specs`` that do not match ``out_shape``."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import first_fitting
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.pallas.model import PallasInstance
from xlalens.analyzers.models.pallas.values import PALLAS_CALL_NAMES, BlockSpecValue
from xlalens.analyzers.rules.jax._pallas import (
    call_site,
    pallas_site,
    plural,
)
from xlalens.analyzers.semantics.values import Seq


@register_rule
class SpecCountDiffersFromOperands(Rule):
    """## What it does
    Finds a `pl.pallas_call` whose `in_specs` list has a different length than the operands the
    kernel is called with (after the scalar-prefetch operands), whose `in_specs` is a single
    `BlockSpec` instead of a list, or whose `out_specs` does not have the structure of
    `out_shape` (a list of specs for a single output, one spec for a list of outputs, or lists of
    different lengths).

    ## Why is this bad?
    Pallas pairs specs with arrays by position, as pytrees: `in_specs` with the operands,
    `out_specs` with `out_shape`. Any difference in structure raises `ValueError: Pytree for
    \\`in_specs\\` and \\`inputs\\` do not match` (or the `out_specs`/`out_shape` variant) when the
    call is traced, and `in_specs` that is not a list or tuple raises `` `in_specs` must be a
    tuple or a list``. Usually an operand was added to the call but not to the specs.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def add(x_ref, y_ref, o_ref):
        o_ref[...] = x_ref[...] + y_ref[...]


    x = jnp.ones((16, 128))
    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
    y = pl.pallas_call(
        add,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2,),
        in_specs=[spec],
        out_specs=spec,
        interpret=True,
    )(x, x)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl


    def add(x_ref, y_ref, o_ref):
        o_ref[...] = x_ref[...] + y_ref[...]


    x = jnp.ones((16, 128))
    spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
    y = pl.pallas_call(
        add,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(2,),
        in_specs=[spec, spec],
        out_specs=spec,
        interpret=True,
    )(x, x)
    ```

    ## References
    - JAX docs: "Grids and BlockSpecs" (`docs/pallas/grid_blockspec.md`)
    - `jax/_src/pallas/core.py`, `get_grid_mapping` and `GridSpec.__init__`
    """

    code = "JX409"
    raises = ("ValueError",)
    message = "the number of BlockSpecs differs from the number of operands or outputs"
    explainer = "pallas-blockspec#one-spec-per-operand"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = PALLAS_CALL_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = pallas_site(ctx, node)
        if site is None:
            return
        for instance in site.instances:
            self.check_inputs(instance, ctx)
            self.check_outputs(instance, ctx)

    def check_inputs(self, instance: PallasInstance, ctx: CheckContext) -> None:
        value, expr = instance.spec_argument("in_specs")
        if expr is None:
            return
        if isinstance(value, BlockSpecValue):
            ctx.report(
                expr,
                "`in_specs` is a single BlockSpec, not a sequence of one spec per operand",
                detail=f'JAX raises "`in_specs` must be a tuple or a list"{instance.call_text()}. Write '
                f"`[{ctx.segment(expr)}]`, one spec per operand.",
                related=call_site(ctx, instance),
            )
            return
        operands = instance.operands
        if not isinstance(value, Seq) or operands is None or len(value.items) == len(operands):
            return
        prefetch = instance.prefetch_count
        after = f" after {plural(prefetch, 'scalar-prefetch operand')}" if prefetch else ""
        specs, given = plural(len(value.items), "spec"), plural(len(operands), "operand")
        counts = f"`in_specs` has {specs} but the kernel gets {given}"
        ctx.report(
            expr,
            first_fitting(f"{counts}{after}", counts),
            detail=f"The kernel is called with {given}{after}{instance.call_text()}: JAX "
            f'raises "Pytree for `in_specs` and `inputs` do not match … `in_specs` is a tuple of length '
            f'{len(value.items)} but `inputs` is a tuple of length {len(operands)}". Give one BlockSpec per operand, '
            "in order.",
            related=call_site(ctx, instance),
        )

    def check_outputs(self, instance: PallasInstance, ctx: CheckContext) -> None:
        value, expr = instance.spec_argument("out_specs")
        outputs, leaf = instance.outputs
        if expr is None or outputs is None:
            return
        call = instance.call_text()
        specs = plural(len(value.items), "spec") if isinstance(value, Seq) else ""
        if leaf and isinstance(value, Seq):
            problem = f"`out_specs` is a sequence of {specs} but `out_shape` is a single array"
            detail = (
                'JAX raises "Pytree for `out_specs` and `out_shape` do not match … `out_specs` is a <class '
                f"'tuple'> but `out_shape` is a pytree leaf\"{call}. Pass the spec itself."
            )
        elif not leaf and isinstance(value, BlockSpecValue):
            problem = (
                f"`out_specs` is a single BlockSpec but `out_shape` is a sequence of {plural(len(outputs), 'output')}"
            )
            detail = (
                'JAX raises "Pytree for `out_specs` and `out_shape` do not match … `out_specs` is a pytree leaf but '
                f"`out_shape` is a <class 'tuple'>\"{call}. Give one spec per output."
            )
        elif not leaf and isinstance(value, Seq) and len(value.items) != len(outputs):
            problem = f"`out_specs` has {specs} but `out_shape` has {plural(len(outputs), 'output')}"
            detail = (
                f'JAX raises "Pytree for `out_specs` and `out_shape` do not match"{call}. Give one spec per output, in '
                "order."
            )
        else:
            return
        ctx.report(expr, problem, detail=detail, related=call_site(ctx, instance))
