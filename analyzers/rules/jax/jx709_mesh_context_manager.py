"""JX709: ``with mesh:`` (deprecated in JAX 0.10.1) and ``jax.sharding.use_mesh`` (removed in 0.7.1)."""

from __future__ import annotations

import ast
import dataclasses
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.knowledge.migrations import USAGE_CHANGES, NameMigration
from xlalens.analyzers.models.sharding.values import MESH_CONSTRUCTOR_NAMES, MeshValue
from xlalens.analyzers.rules._migrations import (
    NameMigrationRule,
    at_scope,
    compatibility_code,
    judge_usage,
    parent_of,
    short_code,
    spell,
    upgrade_finding,
    uses_of,
)

_CHANGE = USAGE_CHANGES["mesh-context-manager"]


@register_rule
class MeshContextManager(NameMigrationRule):
    """## What it does
    Finds a mesh used directly as a context manager (`with mesh:`, `with Mesh(devices, names):`) and
    `jax.sharding.use_mesh`.

    ## Why is this bad?
    JAX 0.7.1 made `jax.set_mesh` the one way to set the mesh for a block: it removed
    `jax.sharding.use_mesh` (an `AttributeError` since), and JAX 0.10.1 deprecated entering the
    mesh itself, so on JAX 0.10.2 `with mesh:` emits `DeprecationWarning: `with mesh:` context
    manager has been deprecated. Please use `with jax.set_mesh(mesh):` instead.`

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((8,), ("x",))
    with mesh:
        y = jax.jit(lambda a: a * 2, out_shardings=P("x"))(jnp.arange(8.0))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((8,), ("x",))
    with jax.set_mesh(mesh):
        y = jax.jit(lambda a: a * 2, out_shardings=P("x"))(jnp.arange(8.0))
    ```

    ## Fix safety
    `with jax.sharding.use_mesh(mesh):` -> `with jax.set_mesh(mesh):` is safe: `set_mesh` is the
    context manager `use_mesh` was renamed to. Called outside a `with`, `use_mesh(mesh)` did
    nothing while `set_mesh(mesh)` sets the mesh for the rest of the program, so that fix is
    unsafe. `with mesh:` -> `with jax.set_mesh(mesh):` is unsafe: `set_mesh` also sets the abstract
    mesh that explicit-sharding types read, which the bare mesh context did not.

    ## Options
    - `jax-version`: the JAX release the code runs on, which decides error (removed by then),
      warning (deprecated) or nothing (not yet deprecated); unset, the project's pin, else the
      newest release xlalens knows.

    ## References
    - JAX changelog: 0.7.1 (`use_mesh` removed, `jax.set_mesh` added), 0.10.1 (`with mesh:` deprecated)
    """

    code = "JX709"
    raises = ("AttributeError", "ImportError", "TypeError", "DeprecationWarning")
    message = "deprecated mesh context manager"
    explainer = "upgrading#mesh-context"
    fix_title = "Use `with jax.set_mesh(mesh):`"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Import, ast.ImportFrom, ast.Attribute, ast.With)

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        if isinstance(node, ast.With):
            self.check_with(node, ctx)
        else:
            super().check(node, ctx)

    def check_with(self, node: ast.With, ctx: CheckContext) -> None:
        # A module that spells no mesh constructor enters no mesh, and its `with` items (files,
        # scopes, locks) need not be evaluated.
        if not any(ctx.index.mentions(name) for name in MESH_CONSTRUCTOR_NAMES):
            return
        for item in node.items:
            expr = item.context_expr
            value = ctx.value(expr)
            # An AbstractMesh is no context manager at all (a ValueError, not this deprecation).
            if not isinstance(value, MeshValue) or value.constructor == "AbstractMesh":
                continue
            judged = judge_usage(ctx, _CHANGE)
            if judged is None or compatibility_code(node, ctx):
                return
            fix = None
            spelled = spell(ctx, "jax.set_mesh")
            if spelled is not None:
                name, imports = spelled
                fix = ctx.fix(
                    f"Use `with {name}({ctx.segment(expr)}):`",
                    Applicability.UNSAFE,
                    [*imports, ctx.edit(expr, f"{name}({ctx.segment(expr)})")],
                )
            shown = short_code(ctx, expr, 30)
            message, detail = upgrade_finding(
                f"`with {shown}:` (a mesh entered directly)",
                judged,
                f"`with jax.set_mesh({shown}):`",
                f"`with {ctx.segment(expr)}:` enters the mesh directly.",
            )
            ctx.report(expr, message, detail=detail, fix=fix, severity=judged.severity)

    def reference_fix(self, node: ast.Attribute, entry: NameMigration, ctx: CheckContext) -> Fix | None:
        """The generic rename, unsafe unless the call is a ``with`` item."""
        fix = super().reference_fix(node, entry, ctx)
        if fix is not None and fix.applicability is Applicability.SAFE and not _with_item(ctx, node):
            fix = dataclasses.replace(fix, applicability=Applicability.UNSAFE)
        return fix

    def from_import_fix(
        self, node: ast.ImportFrom, position: int, entry: NameMigration, ctx: CheckContext
    ) -> Fix | None:
        """The generic import rewrite, unsafe unless every call of the name is a ``with`` item."""
        fix = super().from_import_fix(node, position, entry, ctx)
        if fix is None or fix.applicability is not Applicability.SAFE:
            return fix
        bound = node.names[position].asname or node.names[position].name
        uses = uses_of(ctx, bound, ctx.scope) or []
        for use, scope in uses:
            with at_scope(ctx, scope):
                if not _with_item(ctx, use):
                    return dataclasses.replace(fix, applicability=Applicability.UNSAFE)
        return fix


def _with_item(ctx: CheckContext, callee: ast.expr) -> bool:
    """Whether ``callee`` is called as the context expression of a ``with`` item."""
    call = parent_of(ctx, callee)
    if not (isinstance(call, ast.Call) and call.func is callee):
        return False
    item = parent_of(ctx, call)
    return isinstance(item, ast.withitem) and item.context_expr is call
