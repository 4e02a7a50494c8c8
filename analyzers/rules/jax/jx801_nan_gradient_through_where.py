"""JX801: ``jnp.where`` guarding a singular function in code that is differentiated in reverse mode."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge.singular_functions import (
    GUARDING_FUNCTIONS,
    REVERSE_MODE_TRANSFORMS,
    singular_exponent,
    singularity,
)
from xlalens.analyzers.knowledge.transforms import CALL_KINDS
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.calls import call_graph
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import BindingKind, FunctionNode, ModuleIndex, Scope
from xlalens.analyzers.semantics.values import FunctionRef

_POWERS = frozenset({"jax.numpy.power", "jax.numpy.float_power", "jax.lax.pow"})


class _Differentiated:
    """The module's functions that run under a reverse-mode transform: handed to one (``jax.grad(loss)``,
    ``@jax.value_and_grad``, ``jax.grad(model.nll)``), called from such a function, or nested in one."""

    def __init__(self, index: ModuleIndex, interpreter: Interpreter) -> None:
        self.index = index
        self.interpreter = interpreter
        self.graph = call_graph(index)
        roots: list[FunctionNode] = []
        for call, scope in index.nodes.get(ast.Call, ()):
            assert isinstance(call, ast.Call)
            if call.args and index.qualname(call.func, scope) in REVERSE_MODE_TRANSFORMS:
                roots.extend(self.functions_in(call.args[0], scope))
        for function in index.functions:
            node = function.node
            if isinstance(node, ast.Lambda) or function.parent is None:
                continue
            for decorator in node.decorator_list:  # type: ignore[union-attr]
                if self.differentiates(decorator, function.parent):
                    roots.append(node)  # type: ignore[arg-type]
        by_caller: dict[int, list[FunctionNode]] = {}
        for sites in self.interpreter.dynamic_sites.values():
            for site in sites:
                owner = site.caller.enclosing_function()
                if owner is not None:
                    by_caller.setdefault(id(owner.node), []).append(site.callee)
        self.ids: set[int] = set()
        while roots:
            function = roots.pop()
            if id(function) in self.ids:
                continue
            self.ids.add(id(function))
            roots.extend(site.callee for site in self.graph.calls_in(function))
            roots.extend(by_caller.get(id(function), ()))

    def differentiates(self, decorator: ast.expr, scope: Scope) -> bool:
        """``@jax.grad``, ``@jax.value_and_grad(has_aux=True)``, ``@partial(jax.grad, argnums=1)``."""
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = self.index.qualname(target, scope)
        if name == "functools.partial" and isinstance(decorator, ast.Call) and decorator.args:
            name = self.index.qualname(decorator.args[0], scope)
        return name in REVERSE_MODE_TRANSFORMS

    def functions_in(self, expr: ast.expr, scope: Scope) -> Iterator[FunctionNode]:
        """The module's function that ``expr`` (a transform's argument) runs."""
        while isinstance(expr, ast.Call) and expr.args:
            inner = self.index.qualname(expr.func, scope)
            if inner != "functools.partial" and inner not in CALL_KINDS:
                return
            expr = expr.args[0]
        if isinstance(expr, ast.Lambda):
            yield expr
        elif isinstance(expr, ast.Name) and (local := self.index.local_function(expr.id, scope)) is not None:
            yield local
        elif isinstance(expr, ast.Attribute):
            if isinstance(expr.value, ast.Name):
                method = self.graph.method_of_self(expr.value.id, expr.attr, scope)
                if method is not None:
                    yield method
                    return
            value = self.interpreter.value_of(expr, scope)
            if isinstance(value, FunctionRef):
                yield value.node

    def contains(self, scope: Scope) -> bool:
        """Whether code in ``scope`` runs under a reverse-mode transform."""
        current: Scope | None = scope.enclosing_function()
        while current is not None:
            if id(current.node) in self.ids:
                return True
            current = current.parent.enclosing_function() if current.parent is not None else None
        return False


@register_rule
class NanGradientThroughWhere(Rule):
    """## What it does
    Finds `jnp.where(mask, f(x), y)` in a function that `jax.grad`, `jax.value_and_grad`, `jax.jacrev`,
    `jax.hessian` or `jax.vjp` differentiates (directly, or through the helpers and methods it calls),
    where `f` has an infinite or NaN derivative somewhere (`sqrt`, `log`, `log1p`, `arcsin`, `arccos`,
    `arctanh`, `rsqrt`, a division, `x ** p` with a negative or fractional `p`) and `mask` tests the very
    value `f` is applied to, so the masked-out side is where `f` is singular.

    ## Why is this bad?
    `where` does not stop the gradient of the side it does not select: reverse mode sends that side a
    zero cotangent and multiplies it by `f`'s derivative. At `sqrt(0)`, `log(0)` or `1/0` that derivative
    is infinite, and for `sqrt` or `log` of a negative number it is NaN; `0 * inf` and `0 * nan` are NaN.
    The forward value is right, no error or warning appears, and the NaN reaches the gradient and then
    every parameter after one optimizer step. Forward mode (`jax.jvp`, `jax.jacfwd`) masks tangents and
    stays finite, so it is not reported. The fix is a second `where` that keeps `f`'s argument away from
    the singular points before `f` sees it (the double-`where` pattern), or a clamp (`jnp.maximum`).

    ## Example
    ```python
    import jax
    import jax.numpy as jnp


    def safe_sqrt(x):
        return jnp.where(x > 0, jnp.sqrt(x), 0.0)


    grads = jax.grad(lambda x: safe_sqrt(x).sum())(jnp.array([0.0, 4.0]))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp


    def safe_sqrt(x):
        positive = x > 0
        return jnp.where(positive, jnp.sqrt(jnp.where(positive, x, 1.0)), 0.0)


    grads = jax.grad(lambda x: safe_sqrt(x).sum())(jnp.array([0.0, 4.0]))
    ```

    ## References
    - JAX FAQ: "Gradients contain NaN where using `where`"
    - JAX issues 1052 and 5798
    """

    code = "JX801"
    message = "NaN gradient through the masked-out side of jnp.where"
    explainer = "silent-failures#nan-gradients-through-where"
    severity = Severity.WARNING
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = frozenset({"jax.numpy.where"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if len(node.args) != 3 or node.keywords:
            return
        interpreter = ctx.interpreter
        differentiated = ctx.index.derived(
            "reverse-mode-differentiated-functions", lambda index: _Differentiated(index, interpreter)
        )
        if not differentiated.contains(ctx.scope):
            return
        mask, *branches = node.args
        tested = self.compared_names(mask, ctx, node)
        for branch in branches:
            for site, operand, where in self.singular_sites(branch, ctx):
                if self.guarded(operand, ctx) or not (self.names_of(operand, ctx, depth=1) & tested):
                    continue
                ctx.report(
                    node,
                    f"Gradient of `{snippet(ctx, site)}` is NaN where `{snippet(ctx, operand)}` is {where}",
                    detail=f"The gradient of `{ctx.segment(site)}` is infinite or NaN where "
                    f"`{ctx.segment(operand)}` is {where}, the values `{ctx.segment(mask)}` masks out: `jnp.where` "
                    "still differentiates that side (0 * inf = NaN), so the gradient is NaN there; apply a second "
                    "`jnp.where` to "
                    f"`{ctx.segment(operand)}` first (the double-where pattern).",
                )
                return

    def singular_sites(self, branch: ast.expr, ctx: CheckContext) -> Iterator[tuple[ast.expr, ast.expr, str]]:
        """Each ``(expression, operand, where)`` in ``branch`` (or in the value of a name it is) whose
        derivative is not finite when ``operand`` is ``where``."""
        expressions: list[ast.expr] = [branch]
        if isinstance(branch, ast.Name):
            expressions.extend(self.assigned(branch, ctx))
        for expression in expressions:
            for node in ast.walk(expression):
                if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                    yield node, node.right, "0"
                elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
                    if singular_exponent(_number(node.right)):
                        yield node, node.left, "0 or below"
                elif isinstance(node, ast.Call) and node.args:
                    name = ctx.qualname(node.func)
                    found = singularity(name)
                    if found is not None and found.argument < len(node.args):
                        yield node, node.args[found.argument], found.where
                    elif name in _POWERS and len(node.args) == 2 and singular_exponent(_number(node.args[1])):
                        yield node, node.args[0], "0 or below"

    def guarded(self, operand: ast.expr, ctx: CheckContext) -> bool:
        """Whether ``operand`` is already kept away from the singular points (a where, a clamp)."""
        candidates = [operand, *(self.assigned(operand, ctx) if isinstance(operand, ast.Name) else ())]
        return any(isinstance(c, ast.Call) and ctx.qualname(c.func) in GUARDING_FUNCTIONS for c in candidates)

    def compared_names(self, mask: ast.expr, ctx: CheckContext, where: ast.Call) -> set[str]:
        """The names a comparison in ``mask`` (or in the values of the names it reads, two assignments
        deep) tests: only a mask that compares the operand guards its singular points (a mask drawn by
        `jax.random.bernoulli(key, 1.0 - rate, ...)` reads `rate` but guards nothing)."""
        expressions = [mask]
        frontier = [mask]
        for _ in range(2):
            following = [
                value
                for expression in frontier
                for n in ast.walk(expression)
                if isinstance(n, ast.Name)
                for value in self.assigned(n, ctx)
            ]
            expressions.extend(following)
            frontier = following
        names: set[str] = set()
        for expression in expressions:
            for node in ast.walk(expression):
                compared = isinstance(node, ast.Compare) or (
                    isinstance(node, ast.Call) and ctx.qualname(node.func) in _COMPARISONS
                )
                if compared:
                    names.update(self.names_of(node, ctx, depth=1, besides=where))
        return names

    def names_of(self, expr: ast.expr, ctx: CheckContext, depth: int, besides: ast.AST | None = None) -> set[str]:
        """The names ``expr`` reads, and (``depth`` levels deep) the names their local assignments read,
        other than an assignment of ``besides`` (``targets = jnp.where(targets == 1.0, ...)`` reads its
        own operands, not what the mask compares)."""
        names = _value_names(expr)
        frontier = set(names)
        for _ in range(depth):
            following: set[str] = set()
            for name in frontier:
                for value in self.assigned(ast.Name(id=name, ctx=ast.Load()), ctx):
                    if besides is None or not any(node is besides for node in ast.walk(value)):
                        following.update(_value_names(value))
            frontier = following - names
            names |= following
        return names

    @staticmethod
    def assigned(name: ast.Name, ctx: CheckContext) -> list[ast.expr]:
        """The values a plain assignment in the enclosing function gives ``name``."""
        found = ctx.index.lookup(name.id, ctx.scope)
        if found is None or not found[0].is_function:
            return []
        values = []
        for binding in found[1]:
            if binding.kind is not BindingKind.ASSIGN:
                continue
            statement = ctx.index.assignment_of(binding.node)
            if statement is not None and any(isinstance(t, ast.Name) for t in statement.targets):
                values.append(statement.value)
        return values


_METADATA = frozenset({"shape", "ndim", "size", "dtype"})


def _value_names(expr: ast.expr) -> set[str]:
    """The names whose values ``expr`` reads: not those it only asks for a shape or dtype
    (``logits.shape[-1] - 1`` is a Python int whatever ``logits`` holds)."""
    found: set[str] = set()
    pending = [expr]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Attribute) and node.attr in _METADATA:
            continue
        if isinstance(node, ast.Name):
            found.add(node.id)
        pending.extend(ast.iter_child_nodes(node))
    return found


_COMPARISONS = frozenset(
    f"jax.numpy.{name}"
    for name in (
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "equal",
        "not_equal",
        "isfinite",
        "isnan",
        "isinf",
        "isclose",
        "logical_not",
        "logical_and",
        "logical_or",
    )
)
"""``jax.numpy`` functions that compare their operands, as ``<``/``==`` do."""


def _number(expr: ast.expr) -> object:
    """The number a literal (``0.5``, ``-1``) spells, else None."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub | ast.UAdd):
        inner = _number(expr.operand)
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return -inner if isinstance(expr.op, ast.USub) else inner
        return None
    return expr.value if isinstance(expr, ast.Constant) else None
