"""JX305: reverse-mode differentiation through a ``lax.while_loop`` or a ``fori_loop`` with traced bounds."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import RelatedLocation
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import lax_control_flow
from xlalens.analyzers.models.tracing.carry_types import BodyTypes
from xlalens.analyzers.semantics.names import BindingKind, FunctionNode, Scope
from xlalens.analyzers.semantics.values import TracedTree, Value

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


Path = tuple[object, ...]
"""Where the differentiated argument sits inside a loop's carry: ``()`` is the whole carry."""


_WHILE = lax_control_flow.signature("jax.lax.while_loop")
_FORI = lax_control_flow.signature("jax.lax.fori_loop")
assert _WHILE is not None and _FORI is not None


def _carried_path(init: ast.expr | None, param: str) -> Path | None:
    """Where ``param`` sits in a loop's initial carry written as a tuple, list or dict literal."""
    if isinstance(init, ast.Name):
        return () if init.id == param else None
    if isinstance(init, ast.Tuple | ast.List):
        for position, element in enumerate(init.elts):
            found = _carried_path(element, param)
            if found is not None:
                return (position, *found)
    if isinstance(init, ast.Dict):
        for key, value in zip(init.keys, init.values, strict=True):
            found = _carried_path(value, param)
            if found is not None and isinstance(key, ast.Constant):
                return (key.value, *found)
    return None


@dataclass(frozen=True)
class _Flow:
    """A value that holds a loop's result; the differentiated argument is at ``path`` inside it."""

    loop: ast.Call
    path: Path


class _Search:
    """Finds a while loop whose carry holds a differentiated parameter and whose result is returned.

    A while loop is ``lax.while_loop``, or a ``lax.fori_loop`` whose bounds are certainly traced
    (JAX lowers it to a ``while_loop``).

    Args:
        ctx: The check context.
        bound_traced: Whether the differentiated function's parameter called so is traced where the
            transformed function is called (its non-differentiated arguments are not traced by the
            transform itself).
    """

    def __init__(self, ctx: CheckContext, bound_traced: Callable[[str], bool]) -> None:
        self.ctx = ctx
        self.types = BodyTypes(ctx)
        self.bound_traced = bound_traced

    def loop_in(self, function: FunctionNode, param: str, depth: int = 0) -> ast.Call | None:
        """The while loop through which ``function``'s result depends on ``param``."""
        scope = self.ctx.index.scope_of(function)
        if scope is None or depth > _MAX_DEPTH:
            return None
        if isinstance(function, ast.Lambda):
            return self.returned(function.body, param, {}, scope, depth)
        results: dict[str, _Flow] = {}
        for statement in function.body:
            if isinstance(statement, ast.Assign):
                if len(statement.targets) != 1:
                    continue
                target = statement.targets[0]
                flow = self.flow_of(statement.value, param, results, scope, depth)
                for name in _names(target):
                    results.pop(name, None)
                if flow is not None:
                    self.bind(target, flow, results)
                if param in _names(target):
                    return None  # the parameter is rebound: stop following it
            elif isinstance(statement, ast.Return) and statement.value is not None:
                return self.returned(statement.value, param, results, scope, depth)
        return None

    @staticmethod
    def bind(target: ast.expr, flow: _Flow, results: dict[str, _Flow]) -> None:
        """Record which names hold the differentiated part of a loop's result after an assignment."""
        if isinstance(target, ast.Name):
            results[target.id] = flow
        elif (
            isinstance(target, ast.Tuple | ast.List)
            and flow.path
            and isinstance(flow.path[0], int)
            and not any(isinstance(t, ast.Starred) for t in target.elts)
            and flow.path[0] < len(target.elts)
        ):
            _Search.bind(target.elts[flow.path[0]], _Flow(flow.loop, flow.path[1:]), results)

    def returned(
        self, expr: ast.expr, param: str, results: dict[str, _Flow], scope: Scope, depth: int
    ) -> ast.Call | None:
        """A loop whose differentiated part reaches the returned value."""
        for child in ast.walk(expr):
            if isinstance(child, ast.Attribute) and child.attr in ("shape", "ndim", "dtype", "size"):
                return None  # a static property of the loop result carries no gradient
        flow = self.flow_of(expr, param, results, scope, depth)
        return flow.loop if flow is not None else None

    def flow_of(self, expr: ast.expr, param: str, results: dict[str, _Flow], scope: Scope, depth: int) -> _Flow | None:
        """The loop result ``expr`` carries the differentiated part of, if any."""
        if isinstance(expr, ast.Name):
            return results.get(expr.id)
        if isinstance(expr, ast.Subscript):
            base = self.flow_of(expr.value, param, results, scope, depth)
            if base is None:
                return None
            if not base.path:
                return base  # a slice of the differentiated array itself
            key = expr.slice.value if isinstance(expr.slice, ast.Constant) else None
            return _Flow(base.loop, base.path[1:]) if key == base.path[0] else None
        if isinstance(expr, ast.Call):
            loop = self.loop_call(expr, param, scope, depth)
            if loop is not None:
                return loop
            arguments = [*expr.args, *(k.value for k in expr.keywords)]
            if isinstance(expr.func, ast.Attribute):
                arguments.append(expr.func.value)  # a method of the result, such as y.sum()
            flow = self.first_flow(arguments, param, results, scope, depth)
            return flow if flow is not None and not flow.path else None
        if isinstance(expr, ast.BinOp | ast.UnaryOp):
            operands = [expr.left, expr.right] if isinstance(expr, ast.BinOp) else [expr.operand]
            flow = self.first_flow(operands, param, results, scope, depth)
            return flow if flow is not None and not flow.path else None
        if isinstance(expr, ast.Attribute):
            flow = self.flow_of(expr.value, param, results, scope, depth)
            return flow if flow is not None and not flow.path else None
        if isinstance(expr, ast.Tuple | ast.List):
            return self.first_flow(expr.elts, param, results, scope, depth)
        return None

    def first_flow(
        self, exprs: list[ast.expr], param: str, results: dict[str, _Flow], scope: Scope, depth: int
    ) -> _Flow | None:
        for expr in exprs:
            flow = self.flow_of(expr, param, results, scope, depth)
            if flow is not None:
                return flow
        return None

    def loop_call(self, expr: ast.Call, param: str, scope: Scope, depth: int) -> _Flow | None:
        """The flow when ``expr`` is a while loop over ``param`` or a local call passing ``param`` on."""
        qualname = self.ctx.index.qualname(expr.func, scope)
        if qualname == "jax.lax.while_loop":
            path = _carried_path(_WHILE.argument(expr, "init_val"), param)
            return _Flow(expr, path) if path is not None else None
        if qualname == "jax.lax.fori_loop":
            path = _carried_path(_FORI.argument(expr, "init_val"), param)
            bounds = [_FORI.argument(expr, "lower"), _FORI.argument(expr, "upper")]
            if path is not None and any(b is not None and self.traced(b, scope, depth) for b in bounds):
                return _Flow(expr, path)
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
                    return _Flow(loop, ())
        return None

    def traced(self, bound: ast.expr, scope: Scope, depth: int) -> bool:
        """Whether a ``fori_loop`` bound is certainly a tracer (so JAX runs a ``while_loop``)."""
        if not isinstance(bound, ast.Name):
            return False
        if bound.id in scope.bindings:
            # A parameter of the differentiated function is traced only when its caller passes a
            # tracer; a local or a helper's parameter is not followed.
            kinds = {binding.kind for binding in scope.bindings[bound.id]}
            return depth == 0 and kinds == {BindingKind.PARAM} and self.bound_traced(bound.id)
        return _certainly_traced(self.ctx.interpreter.value_of(bound, scope))


def _certainly_traced(value: Value) -> bool:
    """A tracer for certain: a traced array, or a ``jax.jit`` argument (a Python int passed there is traced too)."""
    return value.is_traced_array() or (isinstance(value, TracedTree) and not value.arrays_only)


def _names(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]


def _applied_to(node: ast.Call, ctx: CheckContext) -> tuple[list[ast.expr], bool] | None:
    """The arguments the transformed function is called with, and whether ``jax.jit`` traces them all.

    Handles ``jax.grad(f)(x, n)`` and ``jax.jit(jax.grad(f))(x, n)`` in the scope of the transform.
    """
    for candidate in ast.walk(ctx.scope.node):
        if not isinstance(candidate, ast.Call) or any(isinstance(a, ast.Starred) for a in candidate.args):
            continue
        if candidate.func is node:
            return list(candidate.args), False
        inner = candidate.func
        if (
            isinstance(inner, ast.Call)
            and ctx.qualname(inner.func) == "jax.jit"
            and inner.args[:1] == [node]
            and len(inner.args) == 1
            and not inner.keywords
        ):
            return list(candidate.args), True
    return None


@register_rule
class ReverseModeThroughWhileLoop(Rule):
    """## What it does
    Finds `jax.grad`, `jax.value_and_grad`, `jax.jacrev` and `jax.vjp` of a local function whose
    result comes out of a `lax.while_loop` that carries a differentiated argument (alone or inside
    a tuple, list or dict carry), directly or through local helper functions. A `lax.fori_loop`
    counts when one of its bounds is certainly traced: an argument of a `jax.jit` function, or of
    the differentiated function when the caller passes a traced value (`jax.jit(jax.grad(f))(x, n)`).

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

    A returned component of the carry that does not hold the differentiated argument (a step
    counter) is not reported: JAX differentiates it without error.

    ## References
    - JAX docs: "Control flow and logical operators with JIT" (differentiation table)
    """

    code = "JX305"
    raises = ("ValueError",)
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
        function = BodyTypes(ctx).function_at(node.args[0], ctx.scope)
        if function is None or function.args.vararg or function.args.posonlyargs:
            return
        positions = _differentiated(node, function, transform)
        if positions is None:
            return
        params = function.args.args

        def bound_traced(name: str) -> bool:
            position = next((i for i, p in enumerate(params) if p.arg == name), None)
            if position is None or position in positions or transform == "jax.vjp":
                return False
            applied = _applied_to(node, ctx)
            if applied is None or position >= len(applied[0]):
                return False
            arguments, all_traced = applied
            return all_traced or _certainly_traced(ctx.interpreter.value_of(arguments[position], ctx.scope))

        search = _Search(ctx, bound_traced)
        for position in positions:
            if not 0 <= position < len(params):
                return
            loop = search.loop_in(function, params[position].arg)
            if loop is not None:
                short = transform.rsplit(".", 1)[-1]
                if ctx.qualname(loop.func) == "jax.lax.fori_loop":
                    what = "a `lax.fori_loop` with traced bounds"
                    why = "JAX runs a `lax.fori_loop` with traced bounds as a `while_loop`, and does not support "
                    where = "the fori_loop with traced bounds is here"
                else:
                    what, where = "a `lax.while_loop`", "the while_loop is here"
                    why = "JAX does not support "
                ctx.report(
                    node.args[0],
                    f"`{short}` differentiates through {what} in reverse mode",
                    detail=f"{why}reverse-mode differentiation through a `while_loop`: use `lax.scan`/`fori_loop` "
                    "with Python-int bounds, or forward mode (`jax.jvp`).",
                    related=[RelatedLocation(ctx.path, ctx.source.node_range(loop), where)],
                )
                return
