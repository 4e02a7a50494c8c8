"""JX105: an operation whose output shape depends on the data, under tracing."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.rules.jax._tracing import (
    function_name,
    is_traced_leaf,
    snippet,
    traced_here,
    traced_sentence,
)
from xlalens.analyzers.semantics.interpreter import AtRef
from xlalens.analyzers.semantics.values import Array, TracedTree

_SIZED = {
    "jax.numpy.nonzero": "nonzero",
    "jax.numpy.argwhere": "argwhere",
    "jax.numpy.flatnonzero": "flatnonzero",
    "jax.numpy.unique": "unique",
}


@register_rule
class DataDependentShape(Rule):
    """## What it does
    Finds operations whose result shape depends on the values of a traced array:
    `jnp.nonzero`, `jnp.argwhere`, `jnp.flatnonzero` and `jnp.unique` without `size=`,
    `jnp.where(condition)` with a single argument, and boolean-mask indexing `x[x > 0]`.

    ## Why is this bad?
    A compiled XLA program has static shapes. How many elements are non-zero, unique or
    selected by a mask is only known when the program runs, so JAX refuses while tracing:
    `ConcretizationTypeError` ("The size argument of jnp.nonzero must be statically specified")
    or `NonConcreteBooleanIndexError` ("Array boolean indices must be concrete").

    ## Example
    ```python
    import jax

    @jax.jit
    def positives(x):
        return x[x > 0]
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def positives(x):
        return jnp.where(x > 0, x, 0)
    ```

    Keep the shape fixed: select with the three-argument `jnp.where`, or give an upper bound
    with `size=` (and `fill_value=`) to `jnp.nonzero`/`jnp.unique`/`jnp.argwhere`.

    ## References
    - `jax.errors.NonConcreteBooleanIndexError`
    - JAX docs: `jax.numpy.nonzero` (the `size` argument)
    """

    code = "JX105"
    raises = ("ConcretizationTypeError", "NonConcreteBooleanIndexError")
    message = "Data-dependent output shape under tracing"
    explainer = "tracing#data-dependent-shapes"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call, ast.Subscript)
    call_names = frozenset({"jax.numpy.where", *_SIZED})
    call_attributes = frozenset({"nonzero"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.Subscript):
            if not isinstance(node.ctx, ast.Load):
                return
            index = ctx.value(node.slice)
            base = ctx.value(node.value)
            if (
                isinstance(index, Array)
                and index.traced
                and index.dtype == "bool"
                and ((isinstance(base, Array) and base.library == "jax") or isinstance(base, TracedTree | AtRef))
            ):
                ctx.report(
                    node,
                    f"Boolean mask `{snippet(ctx, node.slice)}` indexes `{snippet(ctx, node.value)}` in "
                    f"`{function_name(ctx)}`",
                    detail=f"{traced_sentence(ctx)} The result's length depends on the data, so JAX raises "
                    "NonConcreteBooleanIndexError; use `jnp.where(mask, x, 0)`.",
                    related=traced_here(ctx, node.slice),
                )
            return
        assert isinstance(node, ast.Call)
        name = ctx.qualname(node.func)
        keywords = {k.arg for k in node.keywords}
        if (
            name is None
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "nonzero"
            and "size" not in keywords
            and is_traced_leaf(ctx.value(node.func.value))
        ):
            ctx.report(
                node,
                f"`.nonzero()` without `size=` in `{function_name(ctx)}`",
                detail=f"{traced_sentence(ctx)} Its output length depends on the data, so JAX raises "
                "ConcretizationTypeError; pass `size=`.",
                related=traced_here(ctx, node.func.value),
            )
            return
        if name in _SIZED and "size" not in keywords and node.args:
            if is_traced_leaf(ctx.value(node.args[0])):
                short = _SIZED[name]
                ctx.report(
                    node,
                    f"`jnp.{short}` without `size=` in `{function_name(ctx)}`",
                    detail=f"{traced_sentence(ctx)} Its output length depends on the data, so JAX raises "
                    "ConcretizationTypeError; pass `size=` (and `fill_value=`) with an upper bound.",
                    related=traced_here(ctx, node.args[0]),
                )
        elif name == "jax.numpy.where" and len(node.args) == 1 and not keywords - {"size", "fill_value"}:
            if "size" in keywords:
                return
            if is_traced_leaf(ctx.value(node.args[0])):
                ctx.report(
                    node,
                    f"One-argument `jnp.where` in `{function_name(ctx)}` returns a data-dependent number of indices",
                    detail=f"{traced_sentence(ctx)} The number of indices it returns depends on the data, so JAX "
                    "raises ConcretizationTypeError; use `jnp.where(cond, x, y)` or pass `size=`.",
                    related=traced_here(ctx, node.args[0]),
                )
