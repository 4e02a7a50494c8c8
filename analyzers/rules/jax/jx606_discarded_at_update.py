"""JX606: an ``x.at[i].set(v)`` whose result is thrown away."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.interpreter import AtRef
from xlalens.analyzers.semantics.values import Array, TracedTree

_UPDATES = frozenset({"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"})


@register_rule
class DiscardedAtUpdate(Rule):
    """## What it does
    Finds a statement that is only `x.at[i].set(v)` (or `.add`, `.multiply`, `.min`, ... ) on a
    JAX array: the updated array it returns is not assigned to anything.

    ## Why is this bad?
    `x.at[i].set(v)` does not change `x`: JAX arrays are immutable, and the update builds a new
    array, which this statement drops. Nothing raises and the program runs on with `x` as it was,
    so the masking, clamping or accumulation the line was written for silently never happens;
    in a loop body, every iteration does nothing.

    ## Example
    ```python
    import jax.numpy as jnp

    grads = jnp.ones(3)
    grads.at[0].set(0.0)
    ```

    Use instead:
    ```python
    import jax.numpy as jnp

    grads = jnp.ones(3)
    grads = grads.at[0].set(0.0)
    ```

    ## Fix safety
    The fix assigns the result back to the array's name (`x = x.at[i].set(v)`), or to the same
    dict entry (`d["w"] = d["w"].at[i].set(v)`). It is unsafe: the program then computes something
    else than it did (what the line was meant to do).

    ## References
    - JAX docs: "JAX sharp bits: in-place updates"
    - `jax.numpy.ndarray.at`
    """

    code = "JX606"
    message = "Result of an .at[] update is discarded"
    explainer = "in-place-updates#discarded-updates"
    severity = Severity.WARNING
    fix_title = "Assign the updated array back"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Expr,)
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Expr)
        call = node.value
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _UPDATES):
            return
        indexed = call.func.value
        if not (isinstance(indexed, ast.Subscript) and isinstance(indexed.value, ast.Attribute)):
            return
        if indexed.value.attr != "at":
            return
        helper = ctx.value(indexed)
        base = helper.base if isinstance(helper, AtRef) else None
        if not ((isinstance(base, Array) and base.library == "jax") or isinstance(base, TracedTree)):
            return
        array = indexed.value.value
        name = ctx.segment(array)
        fix = None
        if isinstance(array, ast.Name) or (isinstance(array, ast.Subscript) and isinstance(array.value, ast.Name)):
            fix = ctx.fix(
                f"Assign the result back to `{name}`",
                Applicability.UNSAFE,
                [ctx.edit(node, f"{name} = {ctx.segment(call)}")],
            )
        ctx.report(
            node,
            f"Result of `{snippet(ctx, array)}.at[…].{call.func.attr}(…)` is discarded",
            detail=f"`{name}` is unchanged (JAX arrays are immutable), so the update does nothing; assign it back.",
            fix=fix,
        )
