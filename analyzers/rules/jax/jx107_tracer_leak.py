"""JX107: a side effect that lets a tracer escape its trace."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.rules.jax._tracing import (
    holds_traced_leaf,
    snippet,
    traced_here,
    traced_sentence,
)
from xlalens.analyzers.semantics.classes import class_model
from xlalens.analyzers.semantics.names import BindingKind
from xlalens.analyzers.semantics.values import Dict, Instance, Seq, Value

_LIST_MUTATORS = frozenset({"append", "extend", "insert"})
_DICT_MUTATORS = frozenset({"update", "setdefault"})
_CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__"})


@register_rule
class TracerLeak(Rule):
    """## What it does
    Finds traced values stored somewhere that outlives the trace: appended to a list literal
    defined outside the traced function, assigned to a `global`, stored in an outer dict
    literal, or assigned to an attribute of `self` inside a traced method. Containers that are
    not visibly a list or dict (an optimizer's `.update()`) are left alone.

    ## Why is this bad?
    A tracer is only meaningful while its function is being traced. Stored outside, it
    survives as a dead placeholder: any later use raises `UnexpectedTracerError` ("Encountered
    an unexpected tracer"), often far from the line that leaked it. Because the function only
    runs at trace time, the stored value is also never updated by later calls.

    ## Example
    ```python
    import jax

    history = []

    @jax.jit
    def step(x):
        y = x * 2
        history.append(y)
        return y
    ```

    Use instead:
    ```python
    import jax

    history = []

    @jax.jit
    def step(x):
        y = x * 2
        return y

    history.append(step(1.0))
    ```

    Return the values you want to keep (as extra outputs or a carried state) and store them
    outside the traced function; for logging use `jax.debug.print` or `jax.debug.callback`.
    Setting `JAX_CHECK_TRACER_LEAKS=1` makes JAX report leaks where they happen.

    ## References
    - `jax.errors.UnexpectedTracerError`
    - JAX docs: "Pure functions"
    """

    code = "JX107"
    raises = ("UnexpectedTracerError",)
    message = "Traced value stored outside the traced function"
    explainer = "tracing#tracer-leaks"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call, ast.Assign, ast.AugAssign)
    call_names: ClassVar[frozenset[str] | None] = frozenset()
    call_attributes = _LIST_MUTATORS | _DICT_MUTATORS

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        traced = ctx.traced_function
        if traced is None:
            return
        if isinstance(node, ast.Call):
            self.check_mutation(node, ctx)
            return
        assert isinstance(node, ast.Assign | ast.AugAssign)
        value_node = node.value
        if not holds_traced_leaf(ctx.value(value_node)):
            return
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            where = self.escape_target(target, ctx)
            if where is not None:
                self.emit(ctx, node, value_node, where)
                return

    def check_mutation(self, node: ast.Call, ctx: CheckContext) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute):
            return
        container = ctx.value(func.value)
        is_list = isinstance(container, Seq) and container.is_list and func.attr in _LIST_MUTATORS
        is_dict = isinstance(container, Dict) and func.attr in _DICT_MUTATORS
        if not (is_list or is_dict):
            return
        where = self.long_lived_container(func.value, ctx)
        if where is None:
            return
        for argument in [*node.args, *(k.value for k in node.keywords)]:
            if self.contains_traced(argument, ctx):
                self.emit(ctx, node, argument, where, f" (via `.{func.attr}`)")
                return

    def long_lived_container(self, expr: ast.expr, ctx: CheckContext) -> str | None:
        """How to name a container that outlives the trace: bound outside the function, or held by an
        object built outside any trace (``self.history`` of a logger made at module level)."""
        if isinstance(expr, ast.Name):
            return f"outer container `{expr.id}`" if self.is_outer_name(expr.id, ctx) else None
        if isinstance(expr, ast.Attribute) and self.outlives_trace(ctx.value(expr.value), ctx):
            return f"`{snippet(ctx, expr)}` of an outer object"
        return None

    @staticmethod
    def outlives_trace(value: Value, ctx: CheckContext) -> bool:
        """An object of a plain class or dataclass of the module, built before any trace began."""
        if not isinstance(value, Instance) or value.traced or value.lifetime != "outer":
            return False
        return class_model(ctx.index, value.node).kind in ("plain", "dataclass")

    def contains_traced(self, expr: ast.expr, ctx: CheckContext) -> bool:
        if holds_traced_leaf(ctx.value(expr)):
            return True
        if isinstance(expr, ast.Tuple | ast.List):
            return any(self.contains_traced(e, ctx) for e in expr.elts)
        if isinstance(expr, ast.Dict):
            return any(self.contains_traced(v, ctx) for v in expr.values)
        return False

    def is_outer_name(self, name: str, ctx: CheckContext) -> bool:
        """True when ``name`` is bound outside the current function (a global or a closure)."""
        function = ctx.scope.enclosing_function()
        if function is None:
            return False
        found = ctx.index.lookup(name, ctx.scope)
        if found is None:
            return False
        owner, bindings = found
        if owner is function and name not in function.global_names:
            return False
        return all(b.kind is BindingKind.ASSIGN for b in bindings)

    def escape_target(self, target: ast.expr, ctx: CheckContext) -> str | None:
        function = ctx.scope.enclosing_function()
        if function is None:
            return None
        if isinstance(target, ast.Name) and target.id in function.global_names:
            return f"global `{target.id}`"
        if isinstance(target, ast.Subscript) and isinstance(ctx.value(target.value), Seq | Dict):
            where = self.long_lived_container(target.value, ctx)
            if where is not None:
                return where
        if isinstance(target, ast.Attribute) and self.outlives_trace(ctx.value(target.value), ctx):
            return f"`{snippet(ctx, target)}` of an outer object"
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            node = function.node
            params = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]  # type: ignore[attr-defined]
            traced = ctx.traced_function
            under_nnx = traced is not None and traced.via.startswith("flax.")
            receiver = ctx.value(target.value)
            # An object built while tracing (its __init__ runs in the trace) dies with the trace.
            built_in_trace = getattr(node, "name", "") in _CONSTRUCTORS or (
                isinstance(receiver, Instance) and receiver.lifetime == "trace"
            )
            if params and target.value.id == params[0] == "self" and not under_nnx and not built_in_trace:
                return f"`self.{target.attr}`"
        return None

    def emit(self, ctx: CheckContext, node: ast.AST, value: ast.expr, where: str, via: str = "") -> None:
        ctx.report(
            node,
            f"Traced value `{snippet(ctx, value)}` stored in {where}",
            detail=f"{traced_sentence(ctx)} It stores the tracer in {where}{via}, which was made outside the "
            "trace: the tracer outlives its trace and any later use raises UnexpectedTracerError; return the "
            "value instead.",
            related=traced_here(ctx, value),
        )
