"""JX101: a Python ``if``/``while``/``assert``/``and``/``or``/``not``/``bool()`` on a traced value."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.rules.jax._tracing import function_name, snippet, traced_here, traced_sentence


@register_rule
class TracedValueInPythonControlFlow(Rule):
    """## What it does
    Finds Python control flow (`if`, `while`, `assert`, `x if c else y`, `and`, `or`, `not`,
    `bool()`) whose condition is a traced array inside a function traced by `jax.jit`,
    `jax.vmap`, a `lax` control-flow primitive or another staging transform. (`jax.grad` alone
    keeps concrete values, so Python control flow works there.)

    ## Why is this bad?
    Under tracing an argument is an abstract value with a shape and a dtype but no contents.
    Python needs a real `True` or `False` to pick a branch, so JAX raises
    `TracerBoolConversionError` ("Attempted boolean conversion of traced array") the first time
    the function is traced. The branch cannot depend on data that only exists when the compiled
    program runs.

    ## Example
    ```python
    import jax

    @jax.jit
    def relu(x):
        if x > 0:
            return x
        return 0.0
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def relu(x):
        return jnp.where(x > 0, x, 0.0)
    ```

    Use `jnp.where` to select element-wise, `jax.lax.cond`/`jax.lax.switch` to run one of two
    computations, or mark the argument static (`static_argnames`) when the branch really depends
    on a configuration value. Branching on `x.shape`, `x.ndim`, `x.dtype` or `x is None` is fine:
    those are known while tracing.

    ## References
    - JAX docs: "Control flow and logical operators with JIT"
    - `jax.errors.TracerBoolConversionError`
    """

    code = "JX101"
    raises = ("TracerBoolConversionError", "ConcretizationTypeError")
    message = "Python control flow on a traced value"
    explainer = "tracing#python-control-flow"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (
        ast.If,
        ast.While,
        ast.Assert,
        ast.IfExp,
        ast.BoolOp,
        ast.UnaryOp,
        ast.Call,
    )
    call_names = frozenset({"builtins.bool"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.If | ast.While | ast.IfExp):
            kind = {ast.If: "`if`", ast.While: "`while`", ast.IfExp: "conditional expression"}[type(node)]
            self.check_condition(node.test, kind, ctx)
        elif isinstance(node, ast.Assert):
            self.check_condition(node.test, "`assert`", ctx)
        elif isinstance(node, ast.BoolOp):
            operator = "and" if isinstance(node.op, ast.And) else "or"
            for operand in node.values[:-1]:
                if self.report_if_traced(operand, f"`{operator}`", ctx):
                    return
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.report_if_traced(node.operand, "`not`", ctx)
        elif isinstance(node, ast.Call) and node.args and ctx.qualname(node.func) == "builtins.bool":
            self.report_if_traced(node.args[0], "`bool()`", ctx)

    def check_condition(self, test: ast.expr, kind: str, ctx: CheckContext) -> None:
        while isinstance(test, ast.BoolOp):
            test = test.values[-1]
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return
        self.report_if_traced(test, kind, ctx)

    def report_if_traced(self, expr: ast.expr, kind: str, ctx: CheckContext) -> bool:
        if not ctx.value(expr).is_traced_array():
            return False
        ctx.report(
            expr,
            f"Python {kind} on traced value `{snippet(ctx, expr)}` in `{function_name(ctx)}`",
            detail=f"{traced_sentence(ctx)} The branch must be known at trace time, so JAX raises "
            "TracerBoolConversionError; use `jnp.where`/`lax.cond`, or make the input static.",
            related=traced_here(ctx, expr),
        )
        return True
