"""JX306: ``lax.scan`` inputs with different leading axes, a contradicting ``length=``, or nothing to scan."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import lax_control_flow
from xlalens.analyzers.models.tracing.carry_types import BodyTypes, ContainerType, Leaf, Tree


def _leaves(tree: Tree) -> list[Leaf]:
    """The known array leaves of a pytree type."""
    if isinstance(tree, Leaf):
        return [tree]
    if isinstance(tree, ContainerType):
        return [leaf for child in tree.children for leaf in _leaves(child)]
    return []


_SCAN = lax_control_flow.signature("jax.lax.scan")
assert _SCAN is not None


@register_rule
class ScanLeadingAxesDisagree(Rule):
    """## What it does
    Finds `lax.scan` calls whose `xs` leaves have different leading axis sizes, whose `length=`
    contradicts those sizes, or that have neither `xs` nor `length`.

    ## Why is this bad?
    `scan` runs its body once per slice along the leading axis of every `xs` leaf, so all of
    them must have the same leading size, and an explicit `length` must equal it. Without `xs`,
    only `length` tells `scan` how many iterations to run. JAX fails with `ValueError: scan got
    values with different leading axis sizes`, `... got length argument of N which disagrees
    with leading axis sizes`, or `... got no values to scan over and length not provided`.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    lax.scan(lambda c, x: (c + x[0] * x[1], None), 0.0, (jnp.ones(3), jnp.ones(4)))
    ```

    Use instead:
    ```python
    import jax.numpy as jnp
    from jax import lax

    lax.scan(lambda c, x: (c + x[0] * x[1], None), 0.0, (jnp.ones(3), jnp.ones(4)[:3]))
    ```

    Give every `xs` leaf the same leading size (the iteration count), drop a contradicting
    `length=`, and pass `length=n` when the body scans over nothing.

    ## References
    - JAX docs: `jax.lax.scan`
    """

    code = "JX306"
    raises = ("ValueError",)
    message = "scan inputs disagree on the number of iterations"
    explainer = "control-flow#scan-leading-axes-disagree"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = frozenset({"jax.lax.scan"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.qualname(node.func) != "jax.lax.scan" or any(isinstance(a, ast.Starred) for a in node.args):
            return
        if any(k.arg is None for k in node.keywords):
            return
        xs_expr = _SCAN.argument(node, "xs")
        length_expr = _SCAN.argument(node, "length")
        no_length = length_expr is None or (isinstance(length_expr, ast.Constant) and length_expr.value is None)
        if xs_expr is None or (isinstance(xs_expr, ast.Constant) and xs_expr.value is None):
            if no_length:
                ctx.report(
                    node,
                    "`scan` has no `xs` to scan over and no `length=`",
                    detail="Pass `length=` the iteration count.",
                )
            return
        leaves = [leaf for leaf in _leaves(BodyTypes(ctx).value_at(xs_expr, ctx.scope)) if leaf.shape]
        sizes = sorted({leaf.shape[0] for leaf in leaves})
        if len(sizes) > 1:
            text = ", ".join(leaf.describe() for leaf in leaves)
            ctx.report(
                xs_expr,
                f"`scan` inputs have different leading axis sizes ({', '.join(map(str, sizes))})",
                detail=f"The inputs are {text}: their leading axis sizes must all match.",
            )
            return
        if (
            sizes
            and isinstance(length_expr, ast.Constant)
            and type(length_expr.value) is int
            and length_expr.value != sizes[0]
        ):
            ctx.report(
                length_expr,
                f"`scan` got `length={length_expr.value}` but its inputs have leading axis size {sizes[0]}",
            )
