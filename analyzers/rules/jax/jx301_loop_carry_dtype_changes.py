"""JX301: a loop body returns a carry leaf with another dtype than the initial carry's."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.tracing.carry_checks import CarryCheck, check_carry
from xlalens.analyzers.models.tracing.carry_types import Leaf
from xlalens.analyzers.rules.jax._carry import headline, mismatch_text, related

_CONSTRUCTORS = frozenset({"jax.numpy.zeros", "jax.numpy.ones", "jax.numpy.empty"})


@register_rule
class LoopCarryDtypeChanges(Rule):
    """## What it does
    Finds `lax.fori_loop`, `lax.while_loop` and `lax.scan` calls whose body returns a carry leaf
    with a different dtype than the initial carry's leaf, such as a `float32` carry that the body
    turns into `float16` or an `int32` counter that becomes `float32`.

    ## Why is this bad?
    A loop is compiled once for one carry type, so JAX requires the body's output carry to have
    exactly the input's dtypes and fails while tracing with `TypeError: scan body function carry
    input and carry output must have equal types` (or `while_loop body ...`). Only a weakly
    typed initial leaf (a Python scalar such as `0` or `0.5`) is promoted to the body's dtype
    instead of being rejected.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    total = lax.fori_loop(0, 3, lambda i, c: c.astype(jnp.float16), jnp.zeros(3))
    ```

    Use instead:
    ```python
    import jax.numpy as jnp
    from jax import lax

    total = lax.fori_loop(0, 3, lambda i, c: c.astype(jnp.float16), jnp.zeros(3, dtype=jnp.float16))
    ```

    Start the carry with the dtype the body produces, or cast the body's output back to the
    carry's dtype.

    ## Fix safety
    When the initial leaf is `jnp.zeros`, `jnp.ones` or `jnp.empty`, the fix gives it the body's
    dtype. It is unsafe: the author may have meant the body to keep the original dtype.

    ## References
    - JAX docs: `jax.lax.scan`, `jax.lax.fori_loop`, `jax.lax.while_loop`
    """

    code = "JX301"
    raises = ("TypeError",)
    message = "Loop carry changes dtype"
    calculator = "carry-check"
    explainer = "control-flow#loop-carry-dtype-changes"
    fix_title = "Start the carry with the body's dtype"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = frozenset({"jax.lax.fori_loop", "jax.lax.while_loop", "jax.lax.scan"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        check = check_carry(node, ctx)
        if check is None:
            return
        for mismatch in check.mismatches:
            if mismatch.kind != "dtype":
                continue
            assert isinstance(mismatch.expected, Leaf) and isinstance(mismatch.actual, Leaf)
            ctx.report(
                check.init,
                headline(check, mismatch, "dtype"),
                detail=f"{mismatch_text(check, mismatch)}: the dtypes must match.",
                related=related(ctx, check, mismatch),
                calculator=check.calculator_inputs(),
                fix=self.fix(ctx, check, mismatch.expected, mismatch.actual.dtype),
            )

    @staticmethod
    def fix(ctx: CheckContext, check: CarryCheck, init: Leaf, dtype: str) -> Fix | None:
        """Give a `jnp.zeros/ones/empty` initial leaf the body's dtype."""
        call = init.origin
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
            return None
        if ctx.qualname(call.func) not in _CONSTRUCTORS or len(call.args) != 1:
            return None
        if any(k.arg != "dtype" for k in call.keywords):
            return None
        namespace = ctx.segment(call.func.value)
        text = f"{ctx.segment(call.func)}({ctx.segment(call.args[0])}, dtype={namespace}.{dtype})"
        return ctx.fix(f"Start the carry as `{dtype}`", Applicability.UNSAFE, [ctx.edit(call, text)])
