"""JX302: a loop body returns a carry leaf with another shape than the initial carry's."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.tracing.carry_checks import check_carry
from xlalens.analyzers.models.tracing.carry_types import Leaf
from xlalens.analyzers.rules.jax._carry import headline, leaf_path, mismatch_text, related


@register_rule
class LoopCarryShapeChanges(Rule):
    """## What it does
    Finds `lax.fori_loop`, `lax.while_loop` and `lax.scan` calls whose body returns a carry leaf
    with a different shape than the initial carry's leaf, such as a buffer that grows by
    `jnp.concatenate` on every iteration or a matrix the body reduces to a vector.

    ## Why is this bad?
    A loop is compiled once for one carry type, and XLA needs every shape at compile time, so
    a carry cannot grow or shrink between iterations. JAX fails while tracing with
    `TypeError: scan body function carry input and carry output must have equal types ... so
    the shapes do not match` (or `while_loop body ...`). Weak types do not help here: only
    dtypes are promoted.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    found = lax.fori_loop(0, 3, lambda i, acc: jnp.concatenate([acc, jnp.ones(1)]), jnp.zeros(1))
    ```

    Use instead:
    ```python
    import jax.numpy as jnp
    from jax import lax

    found = lax.fori_loop(0, 3, lambda i, acc: acc.at[i + 1].set(1.0), jnp.zeros(4))
    ```

    Allocate the final size up front and write into it with `.at[i].set(...)`, or return the
    per-iteration values as the `ys` output of `lax.scan`, which stacks them for you.

    ## Fix safety
    The suggestion names the leaf and its two shapes and edits nothing: only the author knows the
    final size, so it is display-only.

    ## References
    - JAX docs: `jax.lax.scan`, `jax.lax.fori_loop`, `jax.lax.while_loop`
    """

    code = "JX302"
    raises = ("TypeError",)
    message = "Loop carry changes shape"
    calculator = "carry-check"
    explainer = "control-flow#loop-carry-shape-changes"
    fix_title = "Preallocate the carry at its final shape"
    fix_availability = FixAvailability.ALWAYS
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = frozenset({"jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.scan"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        check = check_carry(node, ctx)
        if check is None:
            return
        for mismatch in check.mismatches:
            if mismatch.kind != "shape":
                continue
            assert isinstance(mismatch.expected, Leaf) and isinstance(mismatch.actual, Leaf)
            path = leaf_path(check, mismatch)
            hint = (
                f"Allocate `{path}` at its final shape before the loop and write each step into it with "
                f"`.at[...].set(...)`, so the body returns {mismatch.expected.describe()} again; or return the "
                "per-step values as the `ys` output of `lax.scan`"
            )
            ctx.report(
                check.init,
                headline(check, mismatch, "shape"),
                detail=f"{mismatch_text(check, mismatch)}: the shapes must match; preallocate the final shape and "
                "write with `.at[i].set`, or emit per-step values as `scan` outputs.",
                related=related(ctx, check, mismatch),
                calculator=check.calculator_inputs(),
                fix=ctx.fix(hint, Applicability.DISPLAY_ONLY, []),
            )
