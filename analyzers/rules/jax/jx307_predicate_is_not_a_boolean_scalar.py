"""JX307: a ``cond`` predicate that is not a scalar, or a ``while_loop`` condition that is not a boolean scalar."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import RelatedLocation
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.tracing.carry_types import BodyTypes, Leaf


@register_rule
class PredicateIsNotABooleanScalar(Rule):
    """## What it does
    Finds `lax.cond` calls whose predicate is an array with dimensions, and `lax.while_loop`
    calls whose `cond_fun` returns something other than a boolean scalar (an array of booleans,
    or a number such as the counter itself).

    ## Why is this bad?
    `cond` picks one branch for the whole computation and `while_loop` decides once per
    iteration whether to go on, so each needs exactly one boolean. JAX fails with
    `TypeError: Pred must be a scalar` or `TypeError: cond_fun must return a boolean scalar`.
    Reduce the array first (`jnp.all(mask)`, `jnp.any(mask)`), compare the number
    (`count < n`), or use `jnp.where` to choose elementwise.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    x = jnp.ones(3)
    lax.while_loop(lambda c: c < 10.0, lambda c: c * 2, x)
    ```

    Use instead:
    ```python
    import jax.numpy as jnp
    from jax import lax

    x = jnp.ones(3)
    lax.while_loop(lambda c: c.max() < 10.0, lambda c: c * 2, x)
    ```

    ## References
    - JAX docs: `jax.lax.cond`, `jax.lax.while_loop`
    """

    code = "JX307"
    raises = ("TypeError",)
    message = "Predicate is not a boolean scalar"
    explainer = "control-flow#predicate-is-not-a-boolean-scalar"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = frozenset({"jax.lax.cond", "jax.lax.while_loop"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        name = ctx.qualname(node.func)
        if any(isinstance(a, ast.Starred) for a in node.args) or node.keywords:
            return
        types = BodyTypes(ctx)
        if name == "jax.lax.cond" and len(node.args) >= 3:
            pred = types.value_at(node.args[0], ctx.scope)
            if isinstance(pred, Leaf) and pred.shape:
                ctx.report(
                    node.args[0],
                    f"`cond` predicate has type {pred.describe()}, not a scalar",
                    detail="The predicate must be a scalar; reduce it with `jnp.all`/`jnp.any`, or choose "
                    "elementwise with `jnp.where`.",
                )
        elif name == "jax.lax.while_loop" and len(node.args) == 3:
            body = types.body_at(node.args[0], ctx.scope)
            init = types.value_at(node.args[2], ctx.scope)
            if body is None or init is None:
                return
            out = types.call(body[0], [init], bound=body[1])
            if isinstance(out, Leaf) and (out.shape or out.dtype != "bool"):
                related = []
                if out.origin is not None:
                    related = [RelatedLocation(ctx.path, ctx.source.node_range(out.origin), "the condition is here")]
                ctx.report(
                    node.args[0],
                    f"`while_loop` condition returns {out.describe()}, not a boolean scalar",
                    detail="The condition must return a boolean scalar (bool[]).",
                    related=related,
                )
