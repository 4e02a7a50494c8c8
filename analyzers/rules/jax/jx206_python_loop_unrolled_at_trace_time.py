"""JX206: a long Python ``for`` loop over traced values inside a traced function."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.rules.jax._tracing import function_name, is_traced_leaf, snippet, traced_here, traced_sentence
from xlalens.analyzers.semantics.loops import walk_scope
from xlalens.analyzers.semantics.numbers import range_length
from xlalens.analyzers.semantics.values import Array, Const, Static

UNROLL_THRESHOLD = 64
"""A literal trip count from which the rule reports (the configuration has no per-rule options)."""


@register_rule
class PythonLoopUnrolledAtTraceTime(Rule):
    """## What it does
    Finds a Python `for` loop over `range(...)` inside a jitted (or otherwise staged) function
    when the loop body computes with traced values and the trip count is a known number of at
    least 64 (a literal or a module-level constant). A trip count that is not known here
    (`range(x.shape[0])`, a static argument) is not reported: it may well be small.

    ## Why is this bad?
    Python runs the loop while JAX traces the function, so the traced program holds one copy of
    the body per iteration. Tracing time, the size of the program and XLA's compile time all grow
    with the trip count: a 1,000-step loop compiles a thousand-fold program, every time the
    function is compiled. `lax.fori_loop` and `lax.scan` trace the body once and loop at run time.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def power_iteration(a, v):
        for _ in range(200):
            v = a @ v
            v = v / jnp.linalg.norm(v)
        return v
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax import lax

    @jax.jit
    def power_iteration(a, v):
        def body(_, v):
            v = a @ v
            return v / jnp.linalg.norm(v)

        return lax.fori_loop(0, 200, body, v)
    ```

    A short loop (fewer than 64 iterations) is often the better choice: unrolling lets XLA fuse
    across iterations. `lax.fori_loop(..., unroll=k)` and `lax.scan(..., unroll=k)` sit in between.

    ## Options
    The threshold of 64 iterations is fixed: the configuration has no per-rule options yet.

    ## References
    - JAX docs: "Control flow and logical operators with JIT"
    - JAX docs: `jax.lax.fori_loop`, `jax.lax.scan`
    """

    code = "JX206"
    message = "long Python loop unrolled at trace time"
    explainer = "jit-caching#python-loops-under-jit"
    severity = Severity.INFO
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.For,)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.For)
        traced = ctx.traced_function
        if traced is None or not traced.stages:
            return
        loop = node.iter
        if not isinstance(loop, ast.Call) or ctx.qualname(loop.func) != "builtins.range" or loop.keywords:
            return
        if not 1 <= len(loop.args) <= 3:
            return
        bounds = [ctx.value(a) for a in loop.args]
        if any(not isinstance(b, Const | Static) for b in bounds):
            return  # unknown, or traced (a different error: JX104)
        if any(self.length_of_container(a, ctx) for a in loop.args):
            return  # `range(len(layers))`: a loop over a Python list, which cannot become a fori_loop
        numbers = [b.value if isinstance(b, Const) and type(b.value) is int else None for b in bounds]
        if None in numbers:
            return  # an unknown trip count (`range(x.shape[0])`) may well be small: precision first
        trip = range_length(*numbers)  # type: ignore[arg-type]
        if trip is None or trip < UNROLL_THRESHOLD:
            return
        carried = next(
            (
                n
                for n in walk_scope(node.body)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and is_traced_leaf(ctx.value(n))
            ),
            None,
        )
        if carried is None:
            return
        size = f"{trip:,} copies of its body"
        ctx.report(
            node,
            f"Python `for` loop over `{snippet(ctx, loop)}` in `{function_name(ctx)}` unrolls into {size}",
            detail=f"{traced_sentence(ctx)} The loop is unrolled at trace time into {size}, so tracing and "
            "compile time grow with the trip count; use `lax.fori_loop` or `lax.scan`.",
            related=traced_here(ctx, carried),
        )

    @staticmethod
    def length_of_container(expr: ast.expr, ctx: CheckContext) -> bool:
        """Whether ``expr`` reads ``len(...)`` of something not known to be an array."""
        return any(
            isinstance(n, ast.Call)
            and ctx.qualname(n.func) == "builtins.len"
            and len(n.args) == 1
            and not isinstance(ctx.value(n.args[0]), Array)
            for n in ast.walk(expr)
        )
