"""JX607: writing into a NumPy array that shares a JAX array's buffer."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.rules.jax._tracing import snippet
from xlalens.analyzers.semantics.interpreter import HOST_VIEW
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.values import Array


def _may_make_views(index: ModuleIndex, text: str) -> bool:
    """Whether the module spells a call that can make a NumPy view of a JAX array.

    Only ``jax.device_get``, ``np.asarray`` and ``np.array(..., copy=False)`` make one, and values
    never come from another module: without those spellings no write can hit a view, and the
    function around each write need not be evaluated to know it.
    """
    return index.mentions("device_get") or index.mentions("asarray") or (index.mentions("array") and "copy" in text)


@register_rule
class WriteToNumpyViewOfJaxArray(Rule):
    """## What it does
    Finds writes into a NumPy array made from a JAX array without a copy: item assignment
    (`a[i] = v`), augmented assignment (`a += v`, `a[i] *= v`) and `out=a` of a NumPy function, where
    `a` comes from `np.asarray(x)`, `np.array(x, copy=False)` or `jax.device_get(x)` of a JAX array
    `x` (with no dtype change, which would copy).

    ## Why is this bad?
    `np.asarray` of a JAX array does not copy: the NumPy array shares the device buffer that JAX
    owns, and JAX marks it read-only because JAX arrays are immutable. Writing to it raises
    `ValueError: assignment destination is read-only` (or `output array is read-only`), typically in
    a data pipeline or a metrics helper far from where the array was converted.

    ## Example
    ```python
    import jax.numpy as jnp
    import numpy as np

    host = np.asarray(jnp.zeros(3))
    host[0] = 1.0
    ```

    Use instead:
    ```python
    import jax.numpy as jnp
    import numpy as np

    host = np.array(jnp.zeros(3))
    host[0] = 1.0
    ```

    ## References
    - `numpy.asarray`, `numpy.array` (`copy=`)
    - JAX docs: "JAX sharp bits: in-place updates"
    """

    code = "JX607"
    raises = ("ValueError",)
    message = "Write to a read-only NumPy view of a JAX array"
    explainer = "in-place-updates#numpy-views-are-read-only"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Assign, ast.AugAssign, ast.Call)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = frozenset()
    call_prefixes = ("numpy.",)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if not ctx.index.derived("may-make-numpy-views", lambda index: _may_make_views(index, ctx.source.text)):
            return
        if isinstance(node, ast.Call):
            target = next((k.value for k in node.keywords if k.arg == "out"), None)
            if target is not None and self.is_view(target, ctx):
                self.emit(node, target, ctx, f"`out={ctx.segment(target)}`")
            return
        if isinstance(node, ast.Assign):
            targets = [t for t in node.targets if isinstance(t, ast.Subscript)]
        else:
            assert isinstance(node, ast.AugAssign)
            targets = [node.target]
        for target in targets:
            written = target.value if isinstance(target, ast.Subscript) else target
            if isinstance(written, ast.Name | ast.Attribute | ast.Subscript) and self.is_view(written, ctx):
                self.emit(node, written, ctx, "this write")

    @staticmethod
    def is_view(expr: ast.expr, ctx: CheckContext) -> bool:
        value = ctx.value(expr)
        return isinstance(value, Array) and value.library == HOST_VIEW

    def emit(self, node: ast.AST, written: ast.expr, ctx: CheckContext, what: str) -> None:
        name = ctx.segment(written)
        ctx.report(
            node,
            f"Write to `{snippet(ctx, written)}`, a read-only NumPy view of a JAX array",
            detail=f"`{name}` is a read-only NumPy view of a JAX array's buffer, so {what} raises ValueError; "
            "make a writable copy with `np.array(...)`.",
        )
