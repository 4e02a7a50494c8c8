"""JX203: a static argument of a jitted function that gets a new value on every loop iteration."""

from __future__ import annotations

import ast
import itertools
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix, Severity
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.transforms import ParamTracing
from xlalens.analyzers.models.tracing.jit_wrappers import (
    BoundArgument,
    JitWrapper,
    bind_arguments,
    calls_jit_wrapper,
    jit_index,
)
from xlalens.analyzers.rules.jax._retrace import (
    CALLS_SHOWN,
    Varying,
    call_label,
    calls_text,
    compile_count,
    compile_total,
    explanation,
    static_text,
)
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.loops import Counter, IterationValues
from xlalens.analyzers.semantics.values import Const, Instance, Value


@register_rule
class StaticArgumentChangesEveryIteration(Rule):
    """## What it does
    Finds a call of a jitted function inside a loop where an argument declared static
    (`static_argnums`/`static_argnames`) gets a value that is new on every iteration: the loop
    counter, or an expression that never repeats as it changes (`i + 1`, `2 * step`, `f"layer{i}"`).
    A static argument that takes only a few values (`i % 2`, `i > 10`, a flag) is not reported: it
    compiles once per value, not once per iteration.

    ## Why is this bad?
    A static argument is part of the cache key by value, so each new value traces and compiles the
    function again. Fed from a loop counter, that is one compile per iteration. JAX's cache-miss
    log shows it as "different input pytree: * at input path [0][1], now … Static(val=1) and
    before … Static(val=0), so the pytree node metadata does not match".

    ## Example
    ```python
    import functools

    import jax
    import jax.numpy as jnp

    @functools.partial(jax.jit, static_argnames="step")
    def decay(x, step):
        return x * 0.99**step

    x = jnp.ones(4)
    for step in range(1000):
        y = decay(x, step=step)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def decay(x, step):
        return x * 0.99**step

    x = jnp.ones(4)
    for step in range(1000):
        y = decay(x, step=step)
    ```

    Pass the value as a traced argument; where the function needs it as a Python value (a shape,
    a loop bound), restructure so that only a few values reach the static argument.

    ## Fix safety
    The suggested fix removes the argument from `static_argnums`/`static_argnames`. It is shown
    only, never applied: the function may use the value where only a static value works (a
    shape, `range`, a Python `if`), which then fails to trace.

    ## References
    - JAX docs: "Just-in-time compilation", section "Marking arguments as static"
    """

    code = "JX203"
    message = "static argument of a jitted function changes on every loop iteration"
    explainer = "jit-caching#static-values-that-change-every-iteration"
    calculator = "retrace"
    severity = Severity.WARNING
    fix_title = "Make the argument traced (remove it from the static arguments)"
    fix_availability = FixAvailability.SOMETIMES
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
        if wrapper.spec.params is ParamTracing.ARRAYS_ONLY:
            self.check_filtered(node, wrapper, ctx)
            return
        if not wrapper.spec.static_keywords:
            return
        arguments = bind_arguments(wrapper, node)
        static = [a for a in arguments if a.static]
        if not static:
            return
        values = IterationValues(node, ctx)
        if not values.loops:
            return
        for argument in static:
            found = self.new_every_iteration(argument.expr, values)
            if found is not None:
                self.report(ctx, node, wrapper, arguments, argument, *found)
                return

    def check_filtered(self, node: ast.Call, wrapper: JitWrapper, ctx: CheckContext) -> None:
        """``equinox.filter_jit``: every leaf that is not an array is static; one that changes every
        iteration (a Python int step counter kept in a module) recompiles every call."""
        values = IterationValues(node, ctx)
        if not values.loops:
            return
        arguments = bind_arguments(wrapper, node)
        for argument in arguments:
            followed = values.values_by_iteration(argument.expr, CALLS_SHOWN)
            if followed is None:
                continue
            counter, seen = followed
            if all(_static_leaf_differs(a, b) for a, b in itertools.pairwise(seen)):
                self.report(ctx, node, wrapper, arguments, argument, counter, None)
                return

    def new_every_iteration(
        self, expr: ast.expr, values: IterationValues
    ) -> tuple[Counter, tuple[object, ...] | None] | None:
        """The counter ``expr`` follows one-to-one, and its values on the first iterations when known."""
        linear = values.linear(expr)
        if linear is not None:
            numbers = tuple(linear.at(k) for k in range(CALLS_SHOWN))
            return linear.counter, None if None in numbers else numbers
        fresh = values.fresh_object(expr)
        if fresh is not None and values.loops:
            # A new object of an identity-hashed class each iteration: never equal to the last one.
            loop = values.loops[0]
            counter = next((c for c in values.counters.values() if c.loop is loop), None)
            return counter or Counter(ast.unparse(expr), loop, None, None, None), None
        followed = values.values_by_iteration(expr, CALLS_SHOWN)
        if followed is not None:
            # Through the module's helpers and what the loop carries: `lr = cosine_lr(step)` gives a
            # new float every step, `schedule = advance(schedule)` a new frozen dataclass.
            counter, seen = followed
            keys = [_static_key(v) for v in seen]
            if None not in keys and len(set(keys)) == len(keys):
                shown = tuple(v.value if isinstance(v, Const) else None for v in seen)
                return counter, None if None in shown else shown
        if isinstance(expr, ast.JoinedStr):
            fields = [v for v in expr.values if isinstance(v, ast.FormattedValue)]
            moving = [f for f in fields if not values.invariant(f.value)]
            if len(moving) != 1 or not all(isinstance(v, ast.Constant) or v in moving for v in expr.values):
                return None
            field = moving[0]
            linear = values.linear(field.value)
            if linear is None or field.conversion != -1 or field.format_spec is not None:
                return None
            texts: list[object] = []
            for k in range(CALLS_SHOWN):
                number = linear.at(k)
                if number is None:
                    return linear.counter, None
                texts.append("".join(str(number) if v is field else str(v.value) for v in expr.values))  # type: ignore[attr-defined]
            return linear.counter, tuple(texts)
        return None

    def report(
        self,
        ctx: CheckContext,
        node: ast.Call,
        wrapper: JitWrapper,
        arguments: list[BoundArgument],
        argument: BoundArgument,
        counter: Counter,
        shown: tuple[object, ...] | None,
    ) -> None:
        calls = None
        if shown is not None:
            texts = tuple(static_text(v) for v in shown)
            if None not in texts:
                calls = calls_text(ctx, arguments, [Varying(argument, texts)])  # type: ignore[arg-type]
        why = explanation(calls) if calls else None
        if why is None:
            path = f"[0][{argument.position}]" if argument.position is not None else f"[1]['{argument.keyword}']"
            why = f"different input pytree: * at input path {path}, now … Static(val=…) and before … Static(val=…)"
        loop = counter.loop
        count = compile_count(loop, counter, ctx)
        ctx.report(
            node,
            f"Static argument `{argument.label}` of `{call_label(node, ctx)}` changes every iteration: "
            f"{compile_total(loop, counter)}",
            detail=f"`{call_label(node, ctx)}` gets `{snippet(ctx, argument.expr)}` for its static argument "
            f"`{argument.label}` (`{wrapper.static_keyword}`), a new value on every iteration of "
            f'`{loop.header(ctx)}`, so every call traces and compiles again ({count}); JAX logs each call as "{why}"; '
            "pass it as a traced argument.",
            fix=self.unstatic(ctx, wrapper, argument),
            calculator={"calls": calls} if calls else None,
        )

    @staticmethod
    def unstatic(ctx: CheckContext, wrapper: JitWrapper, argument: BoundArgument) -> Fix | None:
        """Drop the argument from a literal ``static_argnames``/``static_argnums`` (shown, never applied)."""
        position = argument.position
        if argument.keyword is None and wrapper.params is not None and position is not None:
            name = wrapper.params[position] if position < len(wrapper.params) else None
        else:
            name = argument.keyword
        edits = []
        for keyword, expr in wrapper.keywords.items():
            if keyword not in ("static_argnames", "static_argnums"):
                continue
            try:
                value = ast.literal_eval(expr)
            except ValueError:
                return None
            items = list(value) if isinstance(value, tuple | list) else [value]
            if keyword == "static_argnames":
                kept = [i for i in items if i != name]
            else:
                params = wrapper.params or ()
                index = params.index(name) if name in params else position
                kept = [i for i in items if i != index]
            if len(kept) == len(items):
                continue
            text = "()" if not kept else repr(kept[0]) if len(kept) == 1 else repr(tuple(kept))
            edits.append(ctx.edit(expr, text))
        if not edits:
            return None
        return ctx.fix(f"Remove `{argument.label}` from the static arguments", Applicability.DISPLAY_ONLY, edits)


def _static_key(value: Value) -> object | None:
    """What JAX's cache compares for a static argument: a number's value, a frozen dataclass's or a
    NamedTuple's fields; ``None`` when not known exactly."""
    if isinstance(value, Const):
        return ("const", type(value.value).__name__, value.value)
    if isinstance(value, Instance) and value.fields is not None:
        parts = [_static_key(item) for _, item in value.fields]
        if None in parts:
            return None
        return ("instance", value.class_id, tuple(parts))
    return None


def _static_leaf_differs(a: Value, b: Value) -> bool:
    """Whether two arguments of ``equinox.filter_jit`` surely differ in a leaf that is not an array (a
    Python number in the same place, with another value); unknown parts never differ."""
    if isinstance(a, Const) and isinstance(b, Const):
        return a.value != b.value
    if isinstance(a, Instance) and isinstance(b, Instance) and a.class_id == b.class_id:
        if a.fields is None or b.fields is None:
            return False
        return any(_static_leaf_differs(x, y) for (_, x), (_, y) in zip(a.fields, b.fields, strict=False))
    return False
