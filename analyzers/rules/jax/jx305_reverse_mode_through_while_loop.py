"""JX305: reverse-mode differentiation of a function whose result comes out of a ``lax.while_loop``."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.carry_types import BodyTypes
from xlalens.analyzers.context import CheckContext
from xlalens.analyzers.model import RelatedLocation
from xlalens.analyzers.names import FunctionNode, Scope
from xlalens.analyzers.registry import register_rule
from xlalens.analyzers.rule import Rule

_REVERSE_MODE = frozenset({"jax.grad", "jax.value_and_grad", "jax.jacrev", "jax.vjp"})
_MAX_DEPTH = 3


def _differentiated(node: ast.Call, function: FunctionNode, transform: str) -> list[int] | None:
    """Positions of the parameters ``transform`` differentiates, or None when they are not known."""
    params = function.args.args
    if transform == "jax.vjp":
        return list(range(len(params)))
    argnums = next((k.value for k in node.keywords if k.arg == "argnums"), None)
    if argnums is None:
        return [0] if params else None
    if isinstance(argnums, ast.Constant) and type(argnums.value) is int:
        return [argnums.value]
    if isinstance(argnums, ast.Tuple) and all(
        isinstance(e, ast.Constant) and type(e.value) is int for e in argnums.elts
    ):
        return [e.value for e in argnums.elts if isinstance(e, ast.Constant)]
    return None


class _Search:
    """Finds a ``while_loop`` whose carry is a differentiated parameter and whose result is returned."""

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        self.types = BodyTypes(ctx)

    def loop_in(self, function: FunctionNode, param: str, depth: int = 0) -> ast.Call | None:
        """The ``while_loop`` call through which ``function``'s result depends on ``param``."""
        scope = self.ctx.index.scope_of(function)
        if scope is None or depth > _MAX_DEPTH:
            return None
        if isinstance(function, ast.Lambda):
            return self.loop_of(function.body, param, {}, scope, depth)
        results: dict[str, ast.Call] = {}
        for statement in function.body:
            if isinstance(statement, ast.Assign):
                if len(statement.targets) != 1 or not isinstance(statement.targets[0], ast.Name):
                    continue
                name = statement.targets[0].id
                results.pop(name, None)
                loop = self.loop_of(statement.value, param, results, scope, depth)
                if loop is not None:
                    results[name] = loop
                if name == param:
                    return None  # the parameter is rebound: stop following it
            elif isinstance(statement, ast.Return) and statement.value is not None:
                return self.returned(statement.value, param, results, scope, depth)
        return None

    def returned(
        self, expr: ast.expr, param: str, results: dict[str, ast.Call], scope: Scope, depth: int
    ) -> ast.Call | None:
        """A loop reaching the returned value: directly, through a name, or through arithmetic."""
        for child in ast.walk(expr):
            if isinstance(child, ast.Attribute) and child.attr in ("shape", "ndim", "dtype", "size"):
                return None  # a static property of the loop result carries no gradient
        for child in ast.walk(expr):
            if isinstance(child, ast.Name) and child.id in results:
                return results[child.id]
            if isinstance(child, ast.Call):
                loop = self.loop_of(child, param, results, scope, depth)
                if loop is not None:
                    return loop
        return None

    def loop_of(
        self, expr: ast.expr, param: str, results: dict[str, ast.Call], scope: Scope, depth: int
    ) -> ast.Call | None:
        """The loop when ``expr`` is ``while_loop(..., param)`` or a local call passing ``param`` on."""
        if not isinstance(expr, ast.Call):
            return None
        qualname = self.ctx.index.qualname(expr.func, scope)
        if qualname == "jax.lax.while_loop":
            if len(expr.args) == 3 and isinstance(expr.args[2], ast.Name) and expr.args[2].id == param:
                return expr
            return None
        if qualname is not None or expr.keywords or not isinstance(expr.func, ast.Name):
            return None
        callee = self.types.function_at(expr.func, scope)
        if callee is None or len(callee.args.args) != len(expr.args):
            return None
        for position, argument in enumerate(expr.args):
            if isinstance(argument, ast.Name) and argument.id == param:
                loop = self.loop_in(callee, callee.args.args[position].arg, depth + 1)
                if loop is not None:
                    return loop
        return None


@register_rule
class ReverseModeThroughWhileLoop(Rule):
    """## What it does
    Finds `jax.grad`, `jax.value_and_grad`, `jax.jacrev` and `jax.vjp` of a local function whose
    result comes out of a `lax.while_loop` that carries a differentiated argument, directly or
    through local helper functions.

    ## Why is this bad?
    `while_loop` supports forward-mode differentiation only: its iteration count is unknown
    until it runs, so JAX cannot store the values reverse mode needs. Differentiating through it
    raises `ValueError: Reverse-mode differentiation does not work for lax.while_loop or
    lax.fori_loop with dynamic start/stop values`.

    ## Example
    ```python
    import jax
    from jax import lax

    def grow(x):
        return lax.while_loop(lambda c: c < 10.0, lambda c: c * 2, x)

    jax.grad(grow)(1.0)
    ```

    Use instead:
    ```python
    import jax
    from jax import lax

    def grow(x):
        return lax.fori_loop(0, 4, lambda i, c: c * 2, x)

    jax.grad(grow)(1.0)
    ```

    Use `lax.scan` or a `fori_loop` with Python-integer bounds (a fixed number of steps, with a
    mask if the loop should stop early), or forward mode (`jax.jvp`, `jax.jacfwd`).

    Only `while_loop` carries that are the differentiated argument itself are detected; a
    `fori_loop` whose bounds are traced is not.

    ## References
    - JAX docs: "Control flow and logical operators with JIT" (differentiation table)
    """

    code = "JX305"
    message = "Reverse-mode differentiation through a while_loop"
    explainer = "control-flow#reverse-mode-through-while-loop"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = _REVERSE_MODE

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        transform = ctx.qualname(node.func)
        if transform not in _REVERSE_MODE or not node.args:
            return
        search = _Search(ctx)
        function = search.types.function_at(node.args[0], ctx.scope)
        if function is None or function.args.vararg or function.args.posonlyargs:
            return
        positions = _differentiated(node, function, transform)
        if positions is None:
            return
        params = function.args.args
        for position in positions:
            if not 0 <= position < len(params):
                return
            loop = search.loop_in(function, params[position].arg)
            if loop is not None:
                short = transform.rsplit(".", 1)[-1]
                ctx.report(
                    node.args[0],
                    f"`{short}` differentiates through a `lax.while_loop` in reverse mode, which JAX does not "
                    "support: use `lax.scan`/`fori_loop` with Python-int bounds, or forward mode (`jax.jvp`)",
                    related=[RelatedLocation(ctx.path, ctx.source.node_range(loop), "the while_loop is here")],
                )
                return
