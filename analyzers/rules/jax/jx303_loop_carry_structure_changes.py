"""JX303: a loop body returns a carry with another pytree structure than the initial carry's."""

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
class LoopCarryStructureChanges(Rule):
    """## What it does
    Finds `lax.fori_loop`, `lax.while_loop` and `lax.scan` calls whose body returns a carry
    with a different pytree structure than the initial carry: a tuple of another length, a list
    where a tuple came in, a dict with other keys, another named tuple, or an array where `None`
    came in.

    ## Why is this bad?
    The compiled loop passes the carry as a fixed list of arrays, so the body must return the
    same containers in the same shape. JAX fails while tracing with `TypeError: scan body
    function carry input and carry output must have the same pytree structure` (or
    `while_loop body ...`).

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    def body(i, carry):
        x, y = carry
        return [x + 1, y]

    lax.fori_loop(0, 3, body, (jnp.zeros(2), jnp.ones(2)))
    ```

    Use instead:
    ```python
    import jax.numpy as jnp
    from jax import lax

    def body(i, carry):
        x, y = carry
        return (x + 1, y)

    lax.fori_loop(0, 3, body, (jnp.zeros(2), jnp.ones(2)))
    ```

    Return the carry in the containers it came in; keep optional parts present from the start
    (a zero array rather than `None`).

    ## Fix safety
    The suggestion names the leaf and the container it must stay and edits nothing: which side
    is right is the author's call, so it is display-only.

    ## References
    - JAX docs: "Pytrees"; `jax.lax.scan`, `jax.lax.fori_loop`, `jax.lax.while_loop`
    """

    code = "JX303"
    raises = ("TypeError",)
    message = "Loop carry changes pytree structure"
    calculator = "carry-check"
    explainer = "control-flow#loop-carry-structure-changes"
    fix_title = "Return the carry in its initial structure"
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
            if mismatch.kind != "structure":
                continue
            expected = mismatch.expected
            shape = f"an array of type {expected.describe()}" if isinstance(expected, Leaf) else expected.describe()
            hint = f"Return `{leaf_path(check, mismatch)}` as {shape}, the structure the initial carry has"
            ctx.report(
                check.init,
                headline(check, mismatch, "pytree structure"),
                detail=f"{mismatch_text(check, mismatch)}: the pytree structure must match.",
                related=related(ctx, check, mismatch),
                calculator=check.calculator_inputs(),
                fix=ctx.fix(hint, Applicability.DISPLAY_ONLY, []),
            )
