"""JX204: a list, dict, set or array passed where a jitted function expects a static argument."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix, first_fitting
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.models.tracing.jit_wrappers import bind_arguments, calls_jit_wrapper, jit_index
from xlalens.analyzers.rules.jax._retrace import call_label
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.classes import class_model
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.values import Array, Dict, Instance, Seq, Static, Value

_DISPLAYS: dict[type[ast.AST], str] = {
    ast.List: "a list",
    ast.ListComp: "a list",
    ast.Dict: "a dict",
    ast.DictComp: "a dict",
    ast.Set: "a set",
    ast.SetComp: "a set",
}

_ADVICE = {
    "dict": "pass a tuple of (key, value) pairs or a frozen dataclass",
    "set": "pass a frozenset",
    "array": "pass a tuple of Python numbers, or make the argument traced",
    "frozen,": "declare it `@dataclasses.dataclass(frozen=True)`",
    "`__hash__`,": "define `__hash__` consistent with `__eq__`, or pass a hashable value",
}


def unhashable(value: Value, index: ModuleIndex | None = None) -> str | None:
    """What makes an abstract value unhashable (``a list``), or None when it is hashable or unknown.

    Examples:
        >>> unhashable(Seq((Static("int"),), is_list=True)), unhashable(Seq((Seq((), is_list=True),)))
        ('a list', 'a tuple holding a list')
        >>> print(unhashable(Seq((Static("int"),))))
        None
    """
    if isinstance(value, Seq):
        if value.is_list:
            return "a list"
        inner = next((found for item in value.items if (found := unhashable(item, index))), None)
        return f"a tuple holding {inner}" if inner else None
    if isinstance(value, Dict):
        return "a dict"
    if isinstance(value, Static) and value.kind == "set":
        return "a set"
    if isinstance(value, Array):
        return "a NumPy array" if value.library == "numpy" else "a JAX array"
    if isinstance(value, Instance) and index is not None:
        why = class_model(index, value.node).unhashable
        return f"`{value.node.name}`, {why}," if why is not None else None
    return None


@register_rule
class UnhashableStaticArgument(Rule):
    """## What it does
    Finds a call of a jitted function that passes a list, dict, set, NumPy array or JAX array (or
    a tuple holding one) for an argument declared in `static_argnums`/`static_argnames`, or an
    object of a class of the module that Python makes unhashable: a `@dataclass` that is neither
    frozen nor `unsafe_hash`, or a class that defines `__eq__` but not `__hash__`.

    ## Why is this bad?
    Static arguments go into the compile cache key by their hash, and these types have none. The
    call fails before anything runs: `ValueError: Non-hashable static arguments are not
    supported. An error occurred while trying to hash an object of type <class 'list'>, [2, 2].
    The error was: TypeError: unhashable type: 'list'`.

    ## Example
    ```python
    import functools

    import jax
    import jax.numpy as jnp

    @functools.partial(jax.jit, static_argnames="shape")
    def reshape(x, shape):
        return x.reshape(shape)

    reshape(jnp.ones(4), shape=[2, 2])
    ```

    Use instead:
    ```python
    import functools

    import jax
    import jax.numpy as jnp

    @functools.partial(jax.jit, static_argnames="shape")
    def reshape(x, shape):
        return x.reshape(shape)

    reshape(jnp.ones(4), shape=(2, 2))
    ```

    Use a tuple for a sequence, a frozen dataclass (or a tuple of pairs) for settings, and a
    traced argument for array data.

    ## Fix safety
    A list display (`[2, 2]`, `[f(a) for a in b]`) written at the call becomes a tuple. The fix
    is unsafe: a function that relies on list behaviour (`shape + [1]`, `.append`) now fails
    differently.

    ## References
    - JAX docs: `jax.jit`, parameters `static_argnums` and `static_argnames`
    """

    code = "JX204"
    raises = ("ValueError",)
    message = "unhashable value passed as a static argument"
    explainer = "jit-caching#unhashable-static-arguments"
    fix_title = "Pass a tuple"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_filter = staticmethod(calls_jit_wrapper)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        wrapper = jit_index(ctx.index).of_call(node, ctx.scope)
        if wrapper is None or not wrapper.spec.static_keywords:
            return
        for argument in bind_arguments(wrapper, node):
            if not argument.static:
                continue
            kind = _DISPLAYS.get(type(argument.expr)) or unhashable(ctx.value(argument.expr), ctx.index)
            if kind is None:
                continue
            advice = next((text for word, text in _ADVICE.items() if kind.endswith(word)), "pass a tuple")
            label = call_label(node, ctx)
            ctx.report(
                argument.expr,
                first_fitting(
                    f"`{label}` gets {kind} for its static argument `{argument.label}`",
                    f"`{label}` gets an unhashable {kind.split(',')[0]} for static argument `{argument.label}`",
                ),
                detail=f"`{snippet(ctx, argument.expr)}` ({kind.rstrip(',')}) is passed for `{argument.label}`, "
                f"static through `{wrapper.static_keyword}`, and static arguments must be hashable: the call raises "
                f"ValueError: Non-hashable static arguments are not supported; {advice}.",
                fix=self.as_tuple(ctx, argument.expr),
            )

    @staticmethod
    def as_tuple(ctx: CheckContext, expr: ast.expr) -> Fix | None:
        if expr.end_lineno != expr.lineno:
            return None  # rebuilding a multi-line display could drop its comments
        if isinstance(expr, ast.List):
            items = [ctx.segment(e) for e in expr.elts]
            text = f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
        elif isinstance(expr, ast.ListComp):
            text = f"tuple({ctx.segment(expr)[1:-1]})"
        else:
            return None
        return ctx.fix("Pass a tuple", Applicability.UNSAFE, [ctx.edit(expr, text)])
