"""JX202: a jitted function called in a loop with an argument whose shape changes every iteration."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity, tuple_text
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.tracing.jit_wrappers import BoundArgument, bind_arguments, calls_jit_wrapper, jit_index
from xlalens.analyzers.rules.jax._retrace import (
    CALLS_SHOWN,
    Varying,
    aval_text,
    call_label,
    calls_text,
    compile_count,
    compile_total,
    explanation,
)
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.array_ops import joining_shape
from xlalens.analyzers.semantics.loops import Counter, IterationValues, Linear, Loop, block_of, walk_scope
from xlalens.analyzers.semantics.numbers import slice_length
from xlalens.analyzers.semantics.values import UNKNOWN, Array, Const, Seq, Value

# Array constructors whose arguments are (or contain) the result's dimensions.
_SHAPE_ARGUMENTS = {
    "zeros": (0, "shape"),
    "ones": (0, "shape"),
    "empty": (0, "shape"),
    "full": (0, "shape"),
    "eye": (0, "N"),
    "identity": (0, "n"),
}
_STACKING = frozenset({"stack", "array", "asarray", "vstack", "concatenate"})
_MAX_DEPTH = 4
_MAX_ITERATIONS_COUNTED = 10_000


@dataclass(frozen=True, slots=True)
class ShapeChange:
    """An argument whose shape changes with a loop counter.

    Attributes:
        counter: The counter it follows.
        what: What changes, in words (``shape `(i, 3)```).
        bounded: Whether the change may stop (a slice clamped at the array's end), so "per
            iteration" is an upper bound.
        values: Its abstract value on the first :data:`CALLS_SHOWN` iterations.
        shapes: For a bounded change whose every shape is known: the shape on each iteration.
    """

    counter: Counter
    what: str
    bounded: bool
    values: tuple[Value, ...]
    shapes: tuple[tuple[int | None, ...] | None, ...] = ()

    def distinct(self) -> int | None:
        """How many different shapes the loop passes, when every one is known; else None."""
        if not self.shapes or None in self.shapes:
            return None
        return len(set(self.shapes))


@register_rule
class ArgumentShapeChangesEveryIteration(Rule):
    """## What it does
    Finds a call of a jitted function inside a loop where an argument's shape depends on the loop
    counter: `x[:i]`, `jnp.ones(i)`, `jnp.arange(i)`, `x.reshape(i, -1)`, a list that grows by
    one element per iteration (passed as is, as a tuple, or stacked into an array), or an array the
    loop joins onto itself (`tokens = jnp.concatenate([tokens, new], axis=1)`, `jnp.append`,
    `jnp.vstack`), as autoregressive decoding does. Shape-stable indexing such as `x[i]`,
    `x[i:i + 8]`, a fixed window of a growing array (`tokens[:, -8:]`) or
    `lax.dynamic_slice(x, (i,), (8,))` is not reported.

    ## Why is this bad?
    `jax.jit` compiles one program per input shape. An argument whose shape is new on every
    iteration makes every call a cache miss: the function is traced and compiled again each time,
    so the loop spends its time in the compiler. With `jax_explain_cache_misses` on, JAX logs
    "different input types: * at x, now f32[2] and before f32[1]" on every call.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def total(x):
        return jnp.sum(x * x)

    data = jnp.arange(1000.0)
    sums = [total(data[:i]) for i in range(1, 1000)]
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def total(x, n):
        mask = jnp.arange(x.shape[0]) < n
        return jnp.sum(jnp.where(mask, x * x, 0.0))

    data = jnp.arange(1000.0)
    sums = [total(data, i) for i in range(1, 1000)]
    ```

    Keep the shape fixed and pass the varying size as a traced value (masking), pad to a few
    bucket sizes, or slice a fixed-size window with `lax.dynamic_slice`.

    ## References
    - JAX docs: "Just-in-time compilation", section "JIT and caching"
    """

    code = "JX202"
    message = "jitted function called in a loop with an argument whose shape changes every iteration"
    explainer = "jit-caching#shapes-that-change-every-iteration"
    calculator = "retrace"
    severity = Severity.WARNING
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_filter = staticmethod(calls_jit_wrapper)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.traced_function is not None:
            return
        wrapper = jit_index(ctx.index).of_call(node, ctx.scope)
        if wrapper is None:
            return
        arguments = bind_arguments(wrapper, node)
        if not arguments or any(a.static is None for a in arguments):
            return
        values = IterationValues(node, ctx)
        if not values.loops:
            return
        for argument in arguments:
            if argument.static:
                continue
            change = _ShapeFinder(values, ctx).change(argument.expr)
            if change is not None:
                self.report(ctx, node, arguments, argument, change)
                return

    def report(
        self,
        ctx: CheckContext,
        node: ast.Call,
        arguments: list[BoundArgument],
        argument: BoundArgument,
        change: ShapeChange,
    ) -> None:
        texts = [aval_text(v) for v in change.values]
        calls = None
        if None not in texts:
            calls = calls_text(ctx, arguments, [Varying(argument, tuple(texts))])  # type: ignore[arg-type]
        why = explanation(calls) if calls else None
        counter = change.counter
        logged = f'"{why}"'
        if why is None:
            # The full types are not known here; say at least how the counter moves the shape.
            logged = f'"different input types: * at {argument.label}, …"'
            first, second = counter.at(0), counter.at(1)
            if first is not None and second is not None and counter.name.isidentifier():
                logged += f" as `{counter.name}` goes {first}, {second}, …"
        loop = counter.loop
        total = change.distinct()
        count = compile_count(loop, change.counter, ctx, total)
        headline_count = compile_total(loop, change.counter, total, bounded=change.bounded)
        if change.bounded and total is None:
            # A slice stops growing at the end of the array, whose length is not known here.
            count = count.replace(": ", ": up to ", 1) if ": " in count else f"up to {count}"
        ctx.report(
            node,
            f"Shape of `{argument.label}` passed to `{call_label(node, ctx)}` changes every iteration: "
            f"{headline_count}",
            detail=f"`{call_label(node, ctx)}` is called with `{snippet(ctx, argument.expr)}` as `{argument.label}`, "
            f"whose shape changes on every iteration of `{loop.header(ctx)}` ({change.what}), so every call traces "
            f"and compiles again ({count}); JAX logs each call as {logged}; keep the shape fixed (pad or mask) and "
            "pass the size as a traced value.",
            calculator={"calls": calls} if calls else None,
        )


class _ShapeFinder:
    """Decides whether an argument's shape follows a loop counter, and what it is on consecutive iterations."""

    def __init__(self, values: IterationValues, ctx: CheckContext) -> None:
        self.values = values
        self.ctx = ctx
        self.joined: dict[str, list[Value]] = {}
        """Arrays the loop joins more onto each iteration, by name: their values on the first iterations."""

    def change(self, expr: ast.expr) -> ShapeChange | None:
        found = self.varying(expr, 0)
        if found is None:
            return None
        counter, what, bounded = found
        values = tuple(self.value_at(expr, counter, k, 0) for k in range(CALLS_SHOWN))
        shapes: list[tuple[int | None, ...] | None] = []
        trip = counter.trip_count
        if bounded and trip is not None and trip <= _MAX_ITERATIONS_COUNTED:
            for k in range(trip):
                value = self.value_at(expr, counter, k, 0)
                known = isinstance(value, Array) and value.shape is not None and None not in value.shape
                shapes.append(value.shape if known else None)  # type: ignore[union-attr]
                if not known:
                    break
        return ShapeChange(counter, what, bounded, values, tuple(shapes))

    # -- does the shape change? -------------------------------------------------------------

    def varying(self, expr: ast.expr, depth: int) -> tuple[Counter, str, bool] | None:
        """(counter, what changes in words, whether the change may stop) when ``expr``'s shape follows a counter."""
        if depth > _MAX_DEPTH:
            return None
        if isinstance(expr, ast.Name):
            grown = self.growing(expr) or self.joined_onto(expr)
            if grown is not None:
                return grown
            definition = self.values.definition(expr)
            return self.varying(definition, depth + 1) if definition is not None else None
        if isinstance(expr, ast.Subscript):
            return self.sliced(expr, depth)
        if isinstance(expr, ast.Call):
            return self.constructed(expr, depth)
        if isinstance(expr, ast.BinOp):
            left, right = self.varying(expr.left, depth + 1), self.varying(expr.right, depth + 1)
            if (left is None) == (right is None):
                return None
            other = expr.right if left is not None else expr.left
            return (left or right) if self.values.invariant(other) else None
        return None

    def linear(self, expr: ast.expr) -> Linear | None:
        return self.values.linear(expr)

    def dimensions(self, expr: ast.expr) -> Linear | None:
        """The counter-following dimension in a shape argument (``i``, ``(i, 3)``, ``[n, 2 * i]``)."""
        parts = expr.elts if isinstance(expr, ast.Tuple | ast.List) else [expr]
        found = [self.linear(p) for p in parts]
        moving = [f for f in found if f is not None]
        still = [p for p, f in zip(parts, found, strict=True) if f is None]
        if len(moving) != 1 or not all(self.values.invariant(p) for p in still):
            return None
        return moving[0]

    def sliced(self, expr: ast.Subscript, depth: int) -> tuple[Counter, str, bool] | None:
        if not self.values.invariant(expr.value):
            inner = self.varying(expr.value, depth + 1)
            if inner is None or not self.values.invariant(expr.slice):
                return None
            if self.joined and not self.changes_shape(expr, inner[0]):
                return None  # a fixed-size window of a growing array (`tokens[:, -8:]`) keeps its shape
            return inner
        parts = expr.slice.elts if isinstance(expr.slice, ast.Tuple) else [expr.slice]
        found: tuple[Counter, str, bool] | None = None
        for axis, part in enumerate(parts):
            if self.values.invariant(part):
                continue
            if not isinstance(part, ast.Slice) or found is not None:
                return None  # `x[i]` or `x[i, j:k]`: an index keeps the shape
            bounds = [b for b in (part.lower, part.upper) if b is not None]
            if part.step is not None and not self.values.invariant(part.step):
                return None
            moving = [b for b in bounds if not self.values.invariant(b)]
            if len(moving) != 1 or self.linear(moving[0]) is None:
                return None  # `x[i:i + 8]` keeps its length
            linear = self.linear(moving[0])
            assert linear is not None
            found = (linear.counter, f"axis {axis} is sliced to `{snippet(self.ctx, part)}`", True)
        return found

    def constructed(self, call: ast.Call, depth: int) -> tuple[Counter, str, bool] | None:
        qualname = self.ctx.qualname(call.func) or ""
        module, _, name = qualname.rpartition(".")
        if module in ("jax.numpy", "numpy") and name in _SHAPE_ARGUMENTS:
            position, keyword = _SHAPE_ARGUMENTS[name]
            shape = call.args[position] if len(call.args) > position else None
            shape = shape or next((k.value for k in call.keywords if k.arg == keyword), None)
            if shape is None or not self.others_invariant(call, shape):
                return None
            linear = self.dimensions(shape)
            if linear is None:
                return None
            return linear.counter, f"shape `{snippet(self.ctx, shape)}`", False
        if module in ("jax.numpy", "numpy") and name in ("arange", "linspace"):
            moving = [a for a in [*call.args, *(k.value for k in call.keywords)] if not self.values.invariant(a)]
            sizes = call.args[:3] if name == "arange" else call.args[2:3]
            sizes = sizes + [k.value for k in call.keywords if k.arg in ("start", "stop", "step", "num")]
            if len(moving) != 1 or not any(m is s for m in moving for s in sizes) or self.linear(moving[0]) is None:
                return None
            if name == "arange" and any(m is s for m in moving for s in call.args[2:3]):
                return None  # a moving step changes the length only now and then
            linear = self.linear(moving[0])
            assert linear is not None
            return linear.counter, f"length set by `{snippet(self.ctx, moving[0])}`", False
        reshaped = self.reshape_target(call, qualname)
        if reshaped is not None:
            base, shape = reshaped
            if not self.values.invariant(base):
                return None
            parts = shape if isinstance(shape, list) else [shape]
            linear = self.dimensions(parts[0] if len(parts) == 1 else ast.Tuple(parts, ast.Load()))
            if linear is None:
                return None
            new_shape = ", ".join(self.ctx.segment(p) for p in parts)
            return linear.counter, f"reshaped to `({new_shape})`", False
        if module in ("jax.numpy", "numpy") and name in _STACKING and len(call.args) == 1:
            if isinstance(call.args[0], ast.Name):
                grown = self.growing(call.args[0])
                if grown is not None:
                    return grown[0], f"stacked from `{call.args[0].id}`, which gains an element each iteration", False
            return None
        converted = qualname in ("builtins.tuple", "builtins.list") and len(call.args) == 1
        if converted and isinstance(call.args[0], ast.Name):
            return self.growing(call.args[0])
        return None

    def others_invariant(self, call: ast.Call, shape: ast.expr) -> bool:
        rest = [a for a in [*call.args, *(k.value for k in call.keywords)] if a is not shape]
        return all(self.values.invariant(a) for a in rest)

    def reshape_target(self, call: ast.Call, qualname: str) -> tuple[ast.expr, ast.expr | list[ast.expr]] | None:
        """``(array, new shape)`` for ``x.reshape(a, b)``, ``x.reshape((a, b))`` and ``jnp.reshape(x, (a, b))``."""
        if qualname in ("jax.numpy.reshape", "numpy.reshape") and len(call.args) == 2:
            return call.args[0], call.args[1]
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "reshape" and call.args and not call.keywords:
            base = self.ctx.value(func.value)
            if not isinstance(base, Array):
                return None
            return func.value, (call.args[0] if len(call.args) == 1 else list(call.args))
        return None

    def growing(self, name: ast.Name) -> tuple[Counter, str, bool] | None:
        grown = self.values.growing_list(name)
        if grown is None:
            return None
        loop, _ = grown
        counter = next((c for c in self.values.counters.values() if c.loop is loop), None)
        if counter is None:
            counter = Counter(name.id, loop, None, None, None)
        return counter, f"the list `{name.id}` gains an element each iteration", False

    def joined_onto(self, name: ast.Name) -> tuple[Counter, str, bool] | None:
        """An array the loop rebinds to itself joined with more (``x = jnp.concatenate([x, y])``), when
        its shape before the loop and the shape of what is joined are known: it grows on every iteration."""
        grown = self.values.growing_array(name)
        if grown is None:
            return None
        loop, join = grown
        initial = self.values.value_before(loop, name.id)
        joining = self.ctx.qualname(join.func) or ""
        function = joining.rsplit(".", 1)[-1]
        if function == "append":
            pieces: list[ast.expr] = [join.args[1]]
            axis_expr = next(
                (k.value for k in join.keywords if k.arg == "axis"), join.args[2] if len(join.args) > 2 else None
            )
            axis: object = None if axis_expr is None else self.ctx.value(axis_expr)
        else:
            elements = join.args[0].elts  # type: ignore[attr-defined]
            if [e for e in elements if isinstance(e, ast.Name) and e.id == name.id] != [elements[0]]:
                return None  # joined in front, or more than once: left alone
            pieces = elements[1:]
            axis_expr = next(
                (k.value for k in join.keywords if k.arg == "axis"), join.args[1] if len(join.args) > 1 else None
            )
            axis = 0 if axis_expr is None else self.ctx.value(axis_expr)
        if isinstance(axis, Const):
            axis = axis.value
        if not (axis is None or type(axis) is int) or not isinstance(initial, Array):
            return None
        if any(isinstance(p, ast.Starred) for p in pieces):
            return None
        values: list[Value] = [initial]
        for _ in range(CALLS_SHOWN - 1):
            current = values[-1]
            shapes = [_known_shape(current), *(_known_shape(self.on_iteration(p, {name.id: current})) for p in pieces)]
            after = joining_shape(function, shapes, axis) if None not in shapes else None  # type: ignore[arg-type]
            if after is None or after == shapes[0]:
                return None
            values.append(Array(after, initial.dtype, False, initial.traced))
        shapes = [value.shape for value in values]  # type: ignore[union-attr]
        counter = next((c for c in self.values.counters.values() if c.loop is loop), None)
        if counter is None:
            counter = Counter(name.id, loop, None, None, None)
        self.joined[name.id] = values
        shown = ", ".join(tuple_text(shape) for shape in shapes)  # type: ignore[arg-type]
        return counter, f"`{name.id}` is joined onto itself every iteration: shape {shown}, …", False

    def changes_shape(self, expr: ast.expr, counter: Counter) -> bool:
        """Whether ``expr`` has a known shape on each of the first iterations, a different one each time."""
        values = [self.value_at(expr, counter, k, 0) for k in range(CALLS_SHOWN)]
        shapes = [_known_shape(value) for value in values]
        return None not in shapes and len(set(shapes)) == len(shapes)

    def on_iteration(self, expr: ast.expr, bound: dict[str, Value], depth: int = 0) -> Value:
        """``expr`` on an iteration where the names in ``bound`` have those values: the names the loop body
        defines before it are replaced by their definitions, other names the loop changes by their
        values before the loop (or, for a loop target, the interpreter's)."""
        names = dict(bound)
        for use in walk_scope([expr]):
            if not isinstance(use, ast.Name) or not isinstance(use.ctx, ast.Load) or use.id in names:
                continue
            loop = self.values.assigned_in(use.id)
            if loop is None:
                continue
            definition = self.values.definition(use) if depth < _MAX_DEPTH else None
            if definition is not None:
                names[use.id] = self.on_iteration(definition, bound, depth + 1)
                continue
            before = self.values.value_before(loop, use.id)
            names[use.id] = before if before is not None else self.ctx.value(use)
        return self.ctx.interpreter.value_with(expr, self.ctx.scope, names)

    # -- what is it on iteration k? ---------------------------------------------------------

    def value_at(self, expr: ast.expr, counter: Counter, iteration: int, depth: int) -> Value:
        """The abstract value of ``expr`` on one iteration of ``counter``'s loop."""
        if depth > _MAX_DEPTH:
            return UNKNOWN
        if isinstance(expr, ast.Name):
            grown = self.values.growing_list(expr)
            if grown is not None:
                return self.list_at(expr, grown[0], grown[1], iteration)
            joined = self.joined.get(expr.id)
            if joined is not None:
                return joined[iteration] if iteration < len(joined) else UNKNOWN
        names: dict[str, Value] = {}
        for use in walk_scope([expr]):
            if not isinstance(use, ast.Name) or not isinstance(use.ctx, ast.Load) or use.id in names:
                continue
            linear = self.linear(use)
            if linear is not None:
                number = linear.at(iteration) if linear.counter is counter else None
                names[use.id] = Const(number) if number is not None else UNKNOWN
                continue
            definition = self.values.definition(use)
            if definition is not None:
                names[use.id] = self.value_at(definition, counter, iteration, depth + 1)
            elif self.values.growing_list(use) is not None or use.id in self.joined:
                names[use.id] = self.value_at(use, counter, iteration, depth + 1)
        if isinstance(expr, ast.Subscript):
            return self.subscript_at(expr, names)
        if isinstance(expr, ast.Call):
            reshaped = self.reshape_target(expr, self.ctx.qualname(expr.func) or "")
            if reshaped is not None:
                return self.reshape_at(reshaped, names)
            stacked = self.stacked_at(expr, names)
            if stacked is not None:
                return stacked
        return self.ctx.interpreter.value_with(expr, self.ctx.scope, names)

    def evaluate(self, expr: ast.expr, names: dict[str, Value]) -> Value:
        return self.ctx.interpreter.value_with(expr, self.ctx.scope, names)

    def subscript_at(self, expr: ast.Subscript, names: dict[str, Value]) -> Value:
        base = self.evaluate(expr.value, names)
        if not isinstance(base, Array) or base.shape is None:
            return UNKNOWN
        parts = expr.slice.elts if isinstance(expr.slice, ast.Tuple) else [expr.slice]
        if len(parts) > len(base.shape) or any(isinstance(p, ast.Starred) for p in parts):
            return UNKNOWN
        shape: list[int | None] = []
        for dim, part in zip(base.shape, parts, strict=False):
            if isinstance(part, ast.Slice):
                bounds = [None if b is None else self.evaluate(b, names) for b in (part.lower, part.upper, part.step)]
                if dim is None or not all(b is None or (isinstance(b, Const) and type(b.value) is int) for b in bounds):
                    shape.append(None)
                    continue
                numbers = [None if b is None else b.value for b in bounds]  # type: ignore[union-attr]
                shape.append(slice_length(dim, tuple(numbers)))  # type: ignore[arg-type]
            else:
                index = self.evaluate(part, names)
                if not (isinstance(index, Const) and type(index.value) is int):
                    return UNKNOWN
        shape.extend(base.shape[len(parts) :])
        return Array(tuple(shape), base.dtype, base.weak_type, base.traced, base.library)

    def reshape_at(self, reshaped: tuple[ast.expr, ast.expr | list[ast.expr]], names: dict[str, Value]) -> Value:
        base_expr, shape_expr = reshaped
        base = self.evaluate(base_expr, names)
        parts = shape_expr if isinstance(shape_expr, list) else [shape_expr]
        dims: list[int] = []
        for part in parts:
            value = self.evaluate(part, names)
            items = value.items if isinstance(value, Seq) else (value,)
            for item in items:
                if not (isinstance(item, Const) and type(item.value) is int):
                    return UNKNOWN
                dims.append(item.value)
        if not isinstance(base, Array) or base.shape is None or None in base.shape:
            return UNKNOWN
        size = 1
        for dim in base.shape:
            size *= dim  # type: ignore[operator]
        if dims.count(-1) == 1:
            known = 1
            for dim in dims:
                known *= dim if dim != -1 else 1
            if known <= 0 or size % known:
                return UNKNOWN
            dims[dims.index(-1)] = size // known
        product = 1
        for dim in dims:
            product *= dim
        if product != size:
            return UNKNOWN
        return Array(tuple(dims), base.dtype, base.weak_type, base.traced, base.library)

    def stacked_at(self, call: ast.Call, names: dict[str, Value]) -> Value | None:
        qualname = self.ctx.qualname(call.func) or ""
        module, _, name = qualname.rpartition(".")
        if module not in ("jax.numpy", "numpy") or name not in ("stack", "array", "asarray") or len(call.args) != 1:
            return None
        items = self.evaluate(call.args[0], names)
        if not isinstance(items, Seq) or not items.items:
            return UNKNOWN
        first = items.items[0]
        if not isinstance(first, Array) or first.shape is None or any(i != first for i in items.items):
            return UNKNOWN
        library = "numpy" if module == "numpy" else "jax"
        return Array((len(items.items), *first.shape), first.dtype, False, False, library)

    def list_at(self, name: ast.Name, loop: Loop, append: ast.Call, iteration: int) -> Value:
        """The list on one iteration: its elements before the loop plus one per iteration so far."""
        found = block_of(loop.node, self.ctx.index, self.ctx.scope)
        initial: list[Value] | None = None
        if found is not None:
            block, position = found
            for statement in reversed(block[:position]):
                if (
                    isinstance(statement, ast.Assign)
                    and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name)
                    and statement.targets[0].id == name.id
                ):
                    value = self.ctx.value(statement.value)
                    initial = list(value.items) if isinstance(value, Seq) and value.is_list else None
                    break
        if initial is None:
            return UNKNOWN
        element = self.ctx.value(append.args[0])
        appended_before = append.lineno < name.lineno
        count = iteration + (1 if appended_before else 0)
        return Seq((*initial, *([element] * count)), is_list=True)


def _known_shape(value: Value) -> tuple[int, ...] | None:
    """The shape of an array or Python number whose every dimension is known."""
    if isinstance(value, Const) and type(value.value) in (int, float, bool):
        return ()
    if isinstance(value, Array) and value.shape is not None and all(type(d) is int for d in value.shape):
        return value.shape  # type: ignore[return-value]
    return None
