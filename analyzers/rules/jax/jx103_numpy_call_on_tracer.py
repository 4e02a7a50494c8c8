"""JX103: a NumPy function applied to a traced value."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.numpy_equivalents import (
    JNP_EQUIVALENTS,
    METHOD_DELEGATING_FUNCTIONS,
    SHAPE_ONLY_FUNCTIONS,
)
from xlalens.analyzers.rules.jax._tracing import (
    describe,
    function_name,
    is_traced_leaf,
    snippet,
    traced_here,
    traced_sentence,
)
from xlalens.analyzers.semantics.values import Seq, Value


@register_rule
class NumPyCallOnTracer(Rule):
    """## What it does
    Finds calls of NumPy functions (`np.asarray`, `np.sin`, `np.clip`, …) on a traced array
    inside a traced function. Functions that NumPy forwards to the array's own method when given
    a non-NumPy array (`np.sum(x)` runs `x.sum()`, likewise `mean`, `max`, `reshape`,
    `transpose`, …) work on tracers and are not reported.

    ## Why is this bad?
    NumPy computes on the host, right now, so it asks the tracer for its contents through
    `__array__()`. A tracer has none while the function is traced, and JAX raises
    `TracerArrayConversionError`. Even where it appears to work (on a value that is not traced
    yet), the result is a constant baked into the compiled program.

    ## Example
    ```python
    import jax
    import numpy as np

    @jax.jit
    def f(x):
        return np.sin(x)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def f(x):
        return jnp.sin(x)
    ```

    ## Fix safety
    The fix swaps `np.<name>` for `jnp.<name>` when `jax.numpy` is imported in the file and has
    a function of that name. It is unsafe: `jax.numpy` differs from NumPy in places (default
    dtypes are 32-bit, out-of-bounds indexing clamps, arrays are immutable), so results can
    change.

    ## References
    - `jax.errors.TracerArrayConversionError`
    - JAX docs: "JAX vs NumPy: key differences"
    """

    code = "JX103"
    raises = ("TracerArrayConversionError",)
    message = "NumPy function applied to a traced value"
    explainer = "tracing#numpy-on-tracers"
    fix_title = "Use the `jax.numpy` function"
    fix_availability = FixAvailability.SOMETIMES
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = frozenset()
    call_prefixes = ("numpy.",)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        name = ctx.qualname(node.func)
        if name is None or not name.startswith("numpy."):
            return
        function = name[len("numpy.") :]
        if function in SHAPE_ONLY_FUNCTIONS or function.split(".", 1)[0] in (
            "random",
            "testing",
            "typing",
        ):
            return
        traced = next((a for a in node.args if _converts_tracer(ctx.value(a))), None)
        if traced is None:
            return
        if function in METHOD_DELEGATING_FUNCTIONS and node.args[0] is traced:
            return  # NumPy calls the tracer's own method, which stays traced
        fix = None
        spelling = ctx.module_spelling("jax.numpy", "jnp") if function in JNP_EQUIVALENTS else None
        if spelling is not None:
            alias, imports = spelling
            fix = ctx.fix(
                f"Replace `{ctx.segment(node.func)}` with `{alias}.{function}`",
                Applicability.UNSAFE,
                [*imports, ctx.edit(node.func, f"{alias}.{function}")],
            )
        ctx.report(
            node,
            f"NumPy `{function}` called on {describe(ctx.value(traced))} `{snippet(ctx, traced)}` in "
            f"`{function_name(ctx)}`",
            detail=f"{traced_sentence(ctx)} NumPy needs the array's contents now, so JAX raises "
            "TracerArrayConversionError; use `jax.numpy`.",
            fix=fix,
            related=traced_here(ctx, traced),
        )


def _converts_tracer(value: Value) -> bool:
    """A tracer, or a list or tuple NumPy turns into one array (``np.concatenate([x, y])``) holding one."""
    if isinstance(value, Seq):
        return any(_converts_tracer(item) for item in value.items)
    return is_traced_leaf(value)
