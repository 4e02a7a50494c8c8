"""JX104: a traced value used as a shape, a ``range()`` bound or a slice bound."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.rules.jax._tracing import (
    function_name,
    is_traced_leaf,
    snippet,
    traced_here,
    traced_sentence,
)

_SHAPE_ARGUMENTS: dict[str, tuple[int | None, str]] = {
    "jax.numpy.zeros": (0, "shape"),
    "jax.numpy.ones": (0, "shape"),
    "jax.numpy.empty": (0, "shape"),
    "jax.numpy.full": (0, "shape"),
    "jax.numpy.eye": (0, "N"),
    "jax.numpy.identity": (0, "n"),
    "jax.numpy.arange": (None, ""),
    "jax.numpy.reshape": (1, "shape"),
    "jax.numpy.broadcast_to": (1, "shape"),
    "jax.numpy.tile": (1, "reps"),
    "jax.numpy.linspace": (2, "num"),
    "jax.random.normal": (1, "shape"),
    "jax.random.uniform": (1, "shape"),
    "jax.random.bernoulli": (2, "shape"),
    "jax.random.randint": (1, "shape"),
    "jax.lax.dynamic_slice": (2, "slice_sizes"),
    "jax.lax.dynamic_slice_in_dim": (2, "slice_size"),
    "jax.lax.iota": (1, "size"),
}
"""Function -> (position, keyword) of the argument that must be static; arange: all of them."""


def _traced_parts(expr: ast.expr, ctx: CheckContext) -> ast.expr | None:
    """The first traced element of a shape-like argument (an int or a tuple of ints)."""
    if isinstance(expr, ast.Tuple | ast.List):
        for element in expr.elts:
            if is_traced_leaf(ctx.value(element)):
                return element
        return None
    return expr if is_traced_leaf(ctx.value(expr)) else None


@register_rule
class TracedValueAsStaticSize(Rule):
    """## What it does
    Finds traced values used where JAX needs a number known at trace time: array shapes
    (`jnp.zeros(n)`, `x.reshape(n, -1)`), `range(n)`, and slice bounds (`x[:n]`, `x[i:i + 4]`).

    ## Why is this bad?
    XLA compiles programs for fixed shapes. A shape or a slice length that depends on a traced
    value is unknown until the program runs, so tracing fails: `TypeError: Shapes must be 1D
    sequences of concrete values of integer type`, `IndexError: Slice entries must be static
    integers`, or `TracerIntegerConversionError` for `range()`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def first(x, n):
        return x[:n]
    ```

    Use instead:
    ```python
    import functools
    import jax
    import jax.numpy as jnp

    @functools.partial(jax.jit, static_argnames=("n",))
    def first(x, n):
        return x[:n]
    ```

    Make the size a static argument (each new value compiles once), use
    `jax.lax.dynamic_slice(x, (start,), (size,))` when the start is traced but the size is fixed,
    or keep the full shape and mask with `jnp.where(jnp.arange(len(x)) < n, x, 0)`.

    ## References
    - JAX docs: "Dynamic shapes"
    - `jax.errors.TracerIntegerConversionError`
    """

    code = "JX104"
    raises = ("ConcretizationTypeError", "TracerIntegerConversionError", "TypeError", "IndexError")
    message = "Traced value used as a shape or size"
    explainer = "tracing#static-shapes"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call, ast.Subscript)
    call_names = frozenset({"builtins.range", *_SHAPE_ARGUMENTS})
    call_attributes = frozenset({"reshape"})

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.Subscript):
            self.check_slices(node, ctx)
            return
        assert isinstance(node, ast.Call)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "reshape" and ctx.qualname(node.func) is None:
            for argument in node.args:
                traced = _traced_parts(argument, ctx)
                if traced is not None:
                    self.emit(ctx, node, traced, "as a shape in `reshape`")
                    return
            return
        name = ctx.qualname(node.func)
        if name == "builtins.range":
            for argument in node.args:
                if is_traced_leaf(ctx.value(argument)):
                    self.emit(ctx, node, argument, "as a `range()` bound")
                    return
            return
        spec = _SHAPE_ARGUMENTS.get(name or "")
        if spec is None:
            return
        position, keyword = spec
        candidates: list[ast.expr] = []
        if position is None and not keyword:
            candidates = list(node.args)
        elif position is not None and len(node.args) > position:
            candidates = [node.args[position]]
        candidates += [k.value for k in node.keywords if k.arg == keyword or (position is None and k.arg)]
        for candidate in candidates:
            traced = _traced_parts(candidate, ctx)
            if traced is not None:
                short = (name or "").rsplit(".", 1)[-1]
                self.emit(ctx, node, traced, f"as a size in `{short}`")
                return

    def check_slices(self, node: ast.Subscript, ctx: CheckContext) -> None:
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in parts:
            if not isinstance(part, ast.Slice):
                continue
            for bound in (part.lower, part.upper, part.step):
                if bound is not None and is_traced_leaf(ctx.value(bound)):
                    self.emit(ctx, node, bound, "as a slice bound")
                    return

    def emit(self, ctx: CheckContext, node: ast.AST, traced: ast.expr, usage: str) -> None:
        ctx.report(
            node,
            f"Traced value `{snippet(ctx, traced)}` used {usage} in `{function_name(ctx)}`",
            detail=f"{traced_sentence(ctx)} XLA needs sizes at compile time; make it static "
            "(`static_argnames`) or use `lax.dynamic_slice`/a mask.",
            related=traced_here(ctx, traced),
        )
