"""JX109: a ``jax.vmap`` whose ``in_axes`` do not fit the positional arguments it is called with."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import tuple_text
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge.transforms import CALL_KINDS
from xlalens.analyzers.rules.jax._pallas import plural
from xlalens.analyzers.semantics.calls import may_call_transformed
from xlalens.analyzers.semantics.interpreter import UNKNOWN_OPTION, in_axes_literal
from xlalens.analyzers.semantics.names import positional_params
from xlalens.analyzers.semantics.values import Array, Const, FunctionRef, Transformed, Value
from xlalens.explainers.calculators import dtypes

_VMAP = "jax.vmap"
# Longer in_axes tuples are left out of the headline (the detail still shows them).
_MAX_AXES_TEXT = 30
_LENGTH_ERROR = (
    "vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments passed "
    "to the function, but got len(in_axes)={given}, len(args)={count}"
)


def _axes_text(in_axes: object) -> str:
    """``in_axes`` as Python writes it."""
    if isinstance(in_axes, tuple):
        inner = ", ".join(_axes_text(axis) for axis in in_axes)
        return f"({inner},)" if len(in_axes) == 1 else f"({inner})"
    return str(in_axes)


@register_rule
class VmapInAxesDifferFromArguments(Rule):
    """## What it does
    Finds a call of a `jax.vmap` function whose `in_axes` tuple has a different number of entries
    than the positional arguments of the call, or whose `in_axes` maps an argument along an axis
    it does not have (axis 0 of a scalar, axis 2 of a matrix), when the argument's rank is known.

    ## Why is this bad?
    `in_axes` pairs with the positional arguments one to one (keyword arguments are always mapped
    over their axis 0), and every mapped axis must exist. JAX checks both when the vmapped function
    is called: `ValueError: vmap in_axes must be an int, None, or a tuple of entries corresponding
    to the positional arguments passed to the function, but got len(in_axes)=2, len(args)=3`, or
    `ValueError: vmap was requested to map its argument along axis 0, which implies that its rank
    should be at least 1, but is only 0 (its shape is ())`. It usually follows an argument added
    to the function (a per-example label, a PRNG key) without its `in_axes` entry, or a shared
    value (a learning rate, the parameters) left at the default `in_axes=0`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp


    def example_loss(params, x, y):
        return (jnp.dot(x, params) - y) ** 2


    losses = jax.vmap(example_loss, in_axes=(None, 0))(jnp.ones(3), jnp.ones((8, 3)), jnp.zeros(8))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp


    def example_loss(params, x, y):
        return (jnp.dot(x, params) - y) ** 2


    losses = jax.vmap(example_loss, in_axes=(None, 0, 0))(jnp.ones(3), jnp.ones((8, 3)), jnp.zeros(8))
    ```

    Give one entry per positional argument, in order: `None` for a value every example shares,
    the batch axis for the others. The finding links the vmap calculator with the argument types
    filled in when they are known.

    ## References
    - JAX docs: `jax.vmap` (`in_axes`)
    - `jax/_src/api.py`, `vmap_f` and `_mapped_axis_size`
    """

    code = "JX109"
    raises = ("ValueError",)
    message = "vmap's in_axes do not fit the positional arguments"
    explainer = "vmap#axis-errors"
    calculator = "vmap-axes"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_filter = staticmethod(may_call_transformed("vmap"))

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if any(isinstance(a, ast.Starred) for a in node.args):
            return
        found = self.in_axes(node, ctx)
        if found is None:
            return
        in_axes, function = found
        count = len(node.args)
        values = [ctx.value(arg) for arg in node.args]
        names = self.argument_names(function, count)
        calculator = self.calculator_inputs(values, names, in_axes)
        if isinstance(in_axes, tuple) and len(in_axes) != count:
            entries = f"{len(in_axes)} entr{'y' if len(in_axes) == 1 else 'ies'}"
            axes_text = _axes_text(in_axes)
            shown = f"`in_axes={axes_text}`" if len(axes_text) <= _MAX_AXES_TEXT else "`in_axes`"
            ctx.report(
                node,
                f"{shown} has {entries} for {plural(count, 'positional argument')}",
                detail=f"`in_axes={axes_text}` has {entries} but the vmapped function is called with "
                f"{plural(count, 'positional argument')}: JAX raises ValueError "
                f'"{_LENGTH_ERROR.format(given=len(in_axes), count=count)}"; give one entry per positional argument '
                "(None for an argument every example shares).",
                calculator=calculator,
            )
            return
        axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * count
        for arg, value, axis, name in zip(node.args, values, axes, names, strict=True):
            shape = self.shape(value)
            if type(axis) is not int or shape is None or -len(shape) <= axis < len(shape):
                continue
            rank = len(shape)
            minimum = axis + 1 if axis >= 0 else -axis
            sizes = [size for size in shape if isinstance(size, int)]
            shown = f" (its shape is {tuple_text(tuple(sizes))})" if len(sizes) == rank else ""
            hint = "pass `None` for it in `in_axes` if every example shares it" if rank == 0 else "map an axis it has"
            ctx.report(
                arg,
                f"`vmap` maps argument `{name}` along axis {axis}, but it has rank {rank}",
                detail="JAX raises ValueError "
                f'"vmap was requested to map its argument along axis {axis}, which implies that its rank should be at '
                f'least {minimum}, but is only {rank}{shown}"; {hint}.',
                calculator=calculator,
            )
            return

    @staticmethod
    def in_axes(node: ast.Call, ctx: CheckContext) -> tuple[object, Value | None] | None:
        """The ``in_axes`` of the ``jax.vmap`` that ``node`` calls (Python data) and its function, when known."""
        func = node.func
        if isinstance(func, ast.Call) and ctx.qualname(func.func) == _VMAP:
            if any(k.arg is None for k in func.keywords) or any(isinstance(a, ast.Starred) for a in func.args):
                return None  # `**options` or `*axes` may set in_axes
            expr = next((k.value for k in func.keywords if k.arg == "in_axes"), None)
            if expr is None and len(func.args) > 1:
                expr = func.args[1]
            in_axes = 0 if expr is None else in_axes_literal(ctx.value(expr))
            function = ctx.value(func.args[0]) if func.args else None
            return None if in_axes == UNKNOWN_OPTION else (in_axes, function)
        value = ctx.value(func)
        while isinstance(value, Transformed) and CALL_KINDS.get(value.transform) == "same":
            value = value.function
        if not isinstance(value, Transformed) or value.transform != _VMAP:
            return None
        in_axes = value.option("in_axes", 0)
        return None if in_axes == UNKNOWN_OPTION else (in_axes, value.function)

    @staticmethod
    def argument_names(function: Value | None, count: int) -> list[str]:
        """The parameter each positional argument fills, ``args[i]`` (as JAX writes it) past the known ones."""
        params: list[str] = []
        if isinstance(function, FunctionRef):
            params = positional_params(function.node)[function.bound :]
        return [params[i] if i < len(params) else f"args[{i}]" for i in range(count)]

    @staticmethod
    def shape(value: Value) -> tuple[int | None, ...] | None:
        """An argument's shape when its rank is known: an array's, or ``()`` for a Python number."""
        if isinstance(value, Array):
            return value.shape
        if isinstance(value, Const) and type(value.value) in (int, float, bool, complex):
            return ()
        return None

    @staticmethod
    def calculator_inputs(values: list[Value], names: list[str], in_axes: object) -> dict[str, object] | None:
        """The vmap calculator's inputs, when every argument's type and every ``in_axes`` entry are known."""
        entries = in_axes if isinstance(in_axes, tuple) else (in_axes,)
        if not values or any(entry is not None and type(entry) is not int for entry in entries):
            return None
        args = []
        for value, name in zip(values, names, strict=True):
            if not isinstance(value, Array) or value.shape is None or value.dtype is None:
                return None
            if not all(isinstance(size, int) for size in value.shape):
                return None
            args.append(f"{name}: {dtypes.aval(value.dtype, value.shape)}")
        return {"args": "; ".join(args), "in-axes": _axes_text(in_axes)}
