"""JX706: ``x.device()``, ``x.device_buffer`` and ``x.device_buffers`` on a JAX array, removed in JAX 0.4.27."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge.migrations import USAGE_CHANGES
from xlalens.analyzers.rules._migrations import (
    compatibility_code,
    judge_usage,
    removed_at,
    short_code,
    upgrade_finding,
)
from xlalens.analyzers.semantics.values import Array

_DEVICE = USAGE_CHANGES["array-device-method"]
_BUFFER = USAGE_CHANGES["array-device-buffer"]


def _jax_array(ctx: CheckContext, node: ast.expr) -> bool:
    value = ctx.value(node)
    return isinstance(value, Array) and value.library == "jax"


@register_rule
class RemovedArrayDeviceMethod(Rule):
    """## What it does
    Finds `x.device()` called as a method, and `x.device_buffer` / `x.device_buffers`, on a value
    xlalens knows to be a JAX array.

    ## Why is this bad?
    JAX 0.4.27 removed the `device()` method (deprecated in 0.4.21) and turned `device` into a
    property, so on JAX 0.10.2 `x.device()` calls the device it returns: `TypeError: 'Device'
    object is not callable`. The same release removed `device_buffer` and `device_buffers`
    (deprecated in 0.4.22): `AttributeError: arr.device_buffer has been deprecated. Use
    arr.addressable_data(0)`.

    ## Example
    ```python
    import jax.numpy as jnp

    x = jnp.arange(4.0)
    print(x.device())
    ```

    Use instead:
    ```python
    import jax.numpy as jnp

    x = jnp.arange(4.0)
    print(x.device)
    ```

    ## Fix safety
    The fix is safe: `x.device` is the device `x.device()` returned for the single-device arrays it
    worked on, `x.addressable_data(0)` is the buffer `x.device_buffer` gave, and
    `[shard.data for shard in x.addressable_shards]` the list `x.device_buffers` gave.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.4.21 and 0.4.22 (deprecated), 0.4.27 (removed)
    """

    code = "JX706"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "removed jax.Array device method"
    explainer = "upgrading#array-device-methods"
    fix_title = "Use `x.device` / `x.addressable_data(0)`"
    fix_availability = FixAvailability.ALWAYS
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call, ast.Attribute)
    call_names: ClassVar[frozenset[str] | None] = frozenset()
    call_attributes: ClassVar[frozenset[str]] = frozenset({"device"})
    reference_names: ClassVar[frozenset[str] | None] = frozenset()
    reference_attributes: ClassVar[frozenset[str]] = frozenset({"device_buffer", "device_buffers"})
    needs_traced = False

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.Call):
            self.check_call(node, ctx)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            self.check_buffer(node, ctx)

    def check_call(self, node: ast.Call, ctx: CheckContext) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr != "device" or node.args or node.keywords:
            return
        if not _jax_array(ctx, func.value):
            return
        judged = judge_usage(ctx, _DEVICE)
        failure = "TypeError" if removed_at(ctx, _DEVICE.library, _DEVICE.removed) else None
        if judged is None or compatibility_code(node, ctx, failure):
            return
        written = ctx.segment(func)
        shown = short_code(ctx, func)
        message, detail = upgrade_finding(
            f"`{shown}()`",
            judged,
            f"`{shown}`",
            "`device` is a property now; `.devices()` gives the devices of a sharded array.",
        )
        ctx.report(
            node,
            message,
            detail=detail,
            fix=ctx.fix(f"Use `{written}`", Applicability.SAFE, [ctx.edit(node, written)]),
            severity=judged.severity,
        )

    def check_buffer(self, node: ast.Attribute, ctx: CheckContext) -> None:
        if not _jax_array(ctx, node.value):
            return
        judged = judge_usage(ctx, _BUFFER)
        failure = "AttributeError" if removed_at(ctx, _BUFFER.library, _BUFFER.removed) else None
        if judged is None or compatibility_code(node, ctx, failure):
            return
        # The reference's own text up to the attribute keeps the brackets of `(x + 1).device_buffers`.
        array = ctx.segment(node)[: -len(node.attr)].rstrip().removesuffix(".").rstrip()
        if node.attr == "device_buffer":
            new = f"{array}.addressable_data(0)"
        else:
            new = f"[shard.data for shard in {array}.addressable_shards]"
        message, detail = upgrade_finding(f"`{short_code(ctx, node)}`", judged, f"`{new}`")
        ctx.report(
            node,
            message,
            detail=detail,
            fix=ctx.fix(f"Use `{new}`", Applicability.SAFE, [ctx.edit(node, new)]),
            severity=judged.severity,
        )
