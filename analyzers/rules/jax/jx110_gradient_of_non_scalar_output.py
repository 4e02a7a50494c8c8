"""JX110: ``jax.grad`` / ``jax.value_and_grad`` of a function whose output is certainly not a scalar."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Position, Range, RelatedLocation, tuple_text
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge.transforms import CALL_KINDS
from xlalens.analyzers.semantics.calls import may_call_transformed
from xlalens.analyzers.semantics.interpreter import UNKNOWN_OPTION, vmapped_arguments
from xlalens.analyzers.semantics.names import positional_params
from xlalens.analyzers.semantics.values import Array, Dict, FunctionRef, Seq, Transformed, Value
from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.transform_stack import format_shape
from xlalens.explainers.calculators.vmap_axes import format_in_axes

_GRADS = frozenset({"jax.grad", "jax.value_and_grad"})
_MAX_WRAPPERS = 8
_STACKABLE = frozenset({"jax.jit", "jax.vmap", "jax.grad"})
"""The transforms the transform-stack calculator models with these semantics (grad w.r.t. argument 0)."""


@dataclass(frozen=True, slots=True)
class _Gradient:
    """A ``grad`` reached by a call, with what its function returns for that call."""

    transform: Transformed
    output: Value
    under_vmap: bool
    args: tuple[Value, ...] = ()


def _shape_text(shape: tuple[int | None, ...]) -> str:
    if all(isinstance(size, int) for size in shape):
        return tuple_text(shape)
    return f"rank {len(shape)}"


def _float32_shape(value: Value) -> tuple[int, ...] | None:
    """A float32 array's shape when every size is known (the calculator's arrays are f32)."""
    if not isinstance(value, Array) or value.dtype != "float32" or value.shape is None:
        return None
    if not all(isinstance(size, int) for size in value.shape):
        return None
    return tuple(size for size in value.shape if size is not None)


def _batch(in_axes: object, args: list[Value]) -> int | None:
    """The size of the mapped axis: of the first argument ``in_axes`` maps (``None`` when not known)."""
    if in_axes is UNKNOWN_OPTION or not isinstance(in_axes, int | tuple) or isinstance(in_axes, bool):
        return None
    axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
    if len(axes) != len(args):
        return None
    for axis, arg in zip(axes, args, strict=True):
        if axis is None:
            continue
        shape = _float32_shape(arg)
        if type(axis) is not int or shape is None or not -len(shape) <= axis < len(shape):
            return None
        return shape[axis]
    return None


@register_rule
class GradientOfNonScalarOutput(Rule):
    """## What it does
    Finds a call of `jax.grad(f)` or `jax.value_and_grad(f)` (directly, under `jit`, or under
    `vmap` for per-example gradients) where `f` returns an array of known non-scalar shape for the
    arguments of that call, or returns a tuple, list or dict without `has_aux=True`.

    ## Why is this bad?
    `grad` differentiates a function with one scalar output. An output of shape `(8,)` (a loss per
    example that was never averaged), `(1,)` (a `keepdims=True` sum) or a `(loss, metrics)` pair
    makes the call fail with `TypeError: Gradient only defined for scalar-output functions. Output
    had shape: (8,).` (or `Output was (...)` for a tuple). Reduce the output (`.mean()`, `.sum()`),
    return auxiliary values with `has_aux=True`, or ask for the full Jacobian with `jax.jacrev`.
    Outputs whose shape the analysis does not know are not reported.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp


    def loss(w, xs, ys):
        return (xs @ w - ys) ** 2


    grads = jax.grad(loss)(jnp.ones(3), jnp.ones((8, 3)), jnp.zeros(8))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp


    def loss(w, xs, ys):
        return jnp.mean((xs @ w - ys) ** 2)


    grads = jax.grad(loss)(jnp.ones(3), jnp.ones((8, 3)), jnp.zeros(8))
    ```

    ## References
    - JAX docs: `jax.grad` ("Gradient only defined for scalar-output functions"), `has_aux`
    - JAX docs: "The Autodiff Cookbook" (per-example gradients, `jacrev`)
    """

    code = "JX110"
    raises = ("TypeError",)
    message = "`grad` of a function whose output is not a scalar"
    explainer = "transforms#grad-of-a-batched-function-needs-a-reduction"
    calculator = "transform-stack"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_filter = staticmethod(may_call_transformed("grad", "value_and_grad"))

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return
        callee = ctx.value(node.func)
        if not isinstance(callee, Transformed):
            return
        args = [ctx.value(arg) for arg in node.args]
        keywords = {k.arg: ctx.value(k.value) for k in node.keywords if k.arg is not None}
        gradient = self.gradient(callee, args, keywords, ctx, False)
        if gradient is None:
            return
        problem = self.problem(gradient)
        if problem is None:
            return
        transform = gradient.transform
        name = transform.transform.removeprefix("jax.")
        function = transform.function
        label = self.function_name(function)
        where = " for one example" if gradient.under_vmap else ""
        ctx.report(
            node,
            f"`{name}` of `{label}`, which returns {problem[0]}{where}",
            detail=f'JAX raises TypeError "Gradient only defined for scalar-output functions. {problem[1]}"; '
            f"{problem[2]}.",
            related=self.defined_here(function, label, ctx),
            calculator=self.calculator_inputs(callee, gradient, args, keywords),
        )

    @staticmethod
    def calculator_inputs(
        callee: Transformed, gradient: _Gradient, args: list[Value], keywords: dict[str, Value]
    ) -> dict[str, object]:
        """The transform stack and ``f(w, x)``'s shapes when the call is that calculator's model, else no inputs.

        The model is ``jit``/``vmap``/``grad`` (default ``argnums``, no ``has_aux``) around a function
        of two positional parameters called with two float32 arrays of known shape; any other call
        links the calculator with its example.
        """
        stack: list[Transformed] = []
        value: Value = callee
        while isinstance(value, Transformed) and value is not gradient.transform:
            stack.append(value)
            value = value.function
        stack.append(gradient.transform)
        vmaps = [t for t in stack if t.transform == "jax.vmap"]
        function = gradient.transform.function
        if (
            any(t.transform not in _STACKABLE for t in stack)
            or len(vmaps) > 1
            or gradient.transform.options
            or keywords
            or len(args) != 2
            or not isinstance(function, FunctionRef)
            or len(positional_params(function.node)[function.bound :]) != 2
        ):
            return {}
        shapes = [_float32_shape(arg) for arg in (*gradient.args, gradient.output)]
        if any(shape is None for shape in shapes):
            return {}
        w, x, out = (format_shape(shape) for shape in shapes if shape is not None)
        inputs: dict[str, object] = {"stack": ", ".join(t.transform.removeprefix("jax.") for t in stack)}
        inputs |= {"w": w, "x": x, "out": out}
        if vmaps:
            in_axes = vmaps[0].option("in_axes", 0)
            batch = _batch(in_axes, args)
            if batch is None:
                return {}
            assert isinstance(in_axes, int | tuple)  # _batch accepts only those
            inputs |= {"batch": batch, "in-axes": format_in_axes(in_axes)}
        return inputs

    def gradient(
        self, callee: Value, args: list[Value], keywords: dict[str, Value], ctx: CheckContext, under_vmap: bool
    ) -> _Gradient | None:
        """The ``grad`` this call runs (through ``jit`` and ``vmap``), with its function's output."""
        for _ in range(_MAX_WRAPPERS):
            if not isinstance(callee, Transformed):
                return None
            kind = CALL_KINDS.get(callee.transform)
            if callee.transform in _GRADS:
                function = callee.function
                if not isinstance(function, FunctionRef | Transformed):
                    return None
                output = ctx.interpreter.call_value(function, args, keywords, ctx.scope)
                return _Gradient(callee, output, under_vmap, tuple(args))
            if kind == "same":
                callee = callee.function
            elif callee.transform == "jax.vmap":
                mapped = vmapped_arguments(callee, args, keywords)
                if mapped is None:
                    return None
                args, keywords = mapped
                callee, under_vmap = callee.function, True
            else:
                return None
        return None

    @staticmethod
    def problem(gradient: _Gradient) -> tuple[str, str, str] | None:
        """What the output is, JAX's sentence about it, and the fix; None when it may be a scalar."""
        output = gradient.output
        has_aux = gradient.transform.option("has_aux", False)
        if has_aux is True:
            if not isinstance(output, Seq) or len(output.items) != 2:
                return None
            output = output.items[0]
        elif has_aux is not False:
            return None
        if isinstance(output, Array) and output.shape:
            shape = output.shape
            kind = f"an array of shape {_shape_text(shape)}"
            if output.dtype is not None:
                kind = f"`{dtypes.aval(output.dtype, shape)}`"
            known = all(isinstance(size, int) for size in shape)
            said = f"Output had shape: {_shape_text(shape)}." if known else "Output had shape: ..."
            fix = "reduce it to a scalar (`.mean()`, `.sum()`), or use `jax.jacrev` for the full Jacobian"
            return kind, said, fix
        if isinstance(output, Seq | Dict) and has_aux is False:
            if isinstance(output, Dict):
                container, size, said = "a dict", len(output.values), "Output was {...}."
            else:
                container = "a list" if output.is_list else "a tuple"
                size, said = len(output.items), "Output was [...]." if output.is_list else "Output was (...)."
            fix = "return the loss alone, or pass `has_aux=True` and return `(loss, aux)`"
            return f"{container} of {size} values", said, fix
        return None

    @staticmethod
    def function_name(function: Value) -> str:
        if isinstance(function, FunctionRef):
            node = function.node
            return "<lambda>" if isinstance(node, ast.Lambda) else node.name
        if isinstance(function, Transformed):
            inner = GradientOfNonScalarOutput.function_name(function.function)
            return f"{function.transform.removeprefix('jax.')}({inner})"
        return "f"

    @staticmethod
    def defined_here(function: Value, label: str, ctx: CheckContext) -> list[RelatedLocation]:
        if not isinstance(function, FunctionRef):
            return []
        node = function.node
        anchor = ctx.source.node_range(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            anchor = Range(anchor.start, Position(node.lineno, len(ctx.source.line(node.lineno))))
        return [RelatedLocation(ctx.path, anchor, f"`{label}` is defined here")]
