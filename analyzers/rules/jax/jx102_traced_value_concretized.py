"""JX102: ``int()``, ``float()``, ``.item()``… on a traced value."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.rules.jax._tracing import (
    describe,
    function_name,
    is_traced_leaf,
    snippet,
    traced_here,
    traced_sentence,
)

_CONVERSIONS = {
    "builtins.int": "`int()`",
    "builtins.float": "`float()`",
    "builtins.complex": "`complex()`",
    "operator.index": "`operator.index()`",
}
_METHODS = {"item": "`.item()`", "tolist": "`.tolist()`"}


@register_rule
class TracedValueConcretized(Rule):
    """## What it does
    Finds conversions of a traced array to a Python number or list inside a traced function:
    `int(x)`, `float(x)`, `complex(x)`, `operator.index(x)`, `x.item()` and `x.tolist()`.

    ## Why is this bad?
    A tracer has no value while the function is being traced; the value only exists when the
    compiled program runs on the device. Asking for it raises `ConcretizationTypeError` (or
    `TracerIntegerConversionError` for `operator.index`) before anything is compiled.

    ## Example
    ```python
    import jax

    @jax.jit
    def scale(x, factor):
        return x * float(factor)
    ```

    Use instead:
    ```python
    import jax

    @jax.jit
    def scale(x, factor):
        return x * factor
    ```

    Keep the value as an array (`x.astype(jnp.float32)` converts the dtype without leaving JAX),
    or mark the argument static with `static_argnames` if it really is a configuration constant.
    To log a value, use `jax.debug.print`.

    ## References
    - `jax.errors.ConcretizationTypeError`
    - JAX docs: "Static vs traced operations"
    """

    code = "JX102"
    raises = ("ConcretizationTypeError", "TracerIntegerConversionError")
    message = "Traced value converted to a Python value"
    explainer = "tracing#concretization"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names = frozenset(_CONVERSIONS)
    call_attributes = frozenset(_METHODS)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        target: ast.expr | None = None
        kind = ""
        if isinstance(node.func, ast.Attribute) and node.func.attr in _METHODS and not node.args:
            target, kind = node.func.value, _METHODS[node.func.attr]
        elif len(node.args) == 1 and not node.keywords:
            name = ctx.qualname(node.func)
            if name in _CONVERSIONS:
                target, kind = node.args[0], _CONVERSIONS[name]
        if target is None:
            return
        value = ctx.value(target)
        if not is_traced_leaf(value):
            return
        ctx.report(
            node,
            f"{kind} on {describe(value)} `{snippet(ctx, target)}` in `{function_name(ctx)}`",
            detail=f"{traced_sentence(ctx)} {kind} needs a concrete value that does not exist while tracing: "
            "JAX raises ConcretizationTypeError; keep it an array or make the input static.",
            related=traced_here(ctx, target),
        )
