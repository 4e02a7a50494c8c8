"""JX501: a PartitionSpec names a mesh axis that the mesh does not have."""

from __future__ import annotations

import ast
import difflib
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import first_fitting, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.sharding.model import (
    NAMED_SHARDING,
    PLACING_CALLS,
    SpecOnMesh,
    jax_spec_text,
    sharding_model,
)
from xlalens.analyzers.models.sharding.shard_map import PARTIAL, SHARD_MAP_NAMES, ShardMapSite, shard_map_sites
from xlalens.analyzers.models.sharding.values import MeshValue, SpecValue
from xlalens.analyzers.semantics.values import Seq, Value

# What JAX raises for a collective over an axis no enclosing shard_map binds.
_UNBOUND_AXIS = {
    "axis_index": 'NameError "Found an unbound axis name: {axis}. To fix this, please call axis_index under '
    '`jax.shard_map`."',
}
_NAMING_TRANSFORMS = frozenset({"jax.vmap", "jax.pmap", "jax.experimental.maps.xmap"})


@register_rule
class AxisNameNotInMesh(Rule):
    """## What it does
    Finds a `PartitionSpec` entry that names an axis the mesh does not have: in
    `NamedSharding(mesh, P(...))`, and in a bare `P(...)` given to `jax.device_put`,
    `jax.reshard` or `jax.lax.with_sharding_constraint` under `with jax.set_mesh(mesh):`, in the
    `in_specs`/`out_specs` of a `shard_map` that is called, and in the axis names of collectives
    (`jax.lax.psum(x, 'z')`, `axis_index`) inside its body.

    ## Why is this bad?
    Each name in a spec says which mesh axis splits that array dimension, so JAX looks every name
    up in the mesh. A name that is not there, usually a typo or a spec written for another mesh
    (`'data'` against a mesh of `('batch', 'model')`), raises `ValueError: Resource axis: z of
    P('z',) is not found in mesh: ('x', 'y').` as soon as the `NamedSharding` is built. A
    `shard_map` checks its specs when the mapped function is called (`ValueError: shard_map
    in_specs argument must refer to an axis marked as manual`), and a collective over an unknown
    axis fails while tracing the body (`psum` with a bare `AssertionError`, `axis_index` with
    `NameError: Found an unbound axis name`).

    ## Example
    ```python
    import jax
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("data", "model"))
    sharding = NamedSharding(mesh, P("batch", None))
    ```

    Use instead:
    ```python
    import jax
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("data", "model"))
    sharding = NamedSharding(mesh, P("data", None))
    ```

    ## References
    - JAX docs: "Distributed arrays and automatic parallelization"
    - `jax/_src/named_sharding.py`, `check_pspec`
    """

    code = "JX501"
    raises = ("ValueError", "NameError", "AssertionError")
    message = "a PartitionSpec names a mesh axis the mesh does not have"
    explainer = "sharding#axis-names"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = NAMED_SHARDING | PLACING_CALLS | SHARD_MAP_NAMES | {PARTIAL}

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        for use in sharding_model(ctx.index, ctx.interpreter).specs_at(node):
            self.check_spec(use, ctx)
        for site in shard_map_sites(ctx):
            if site.call is node:
                self.check_shard_map(site, ctx)

    def check_spec(self, use: SpecOnMesh, ctx: CheckContext) -> None:
        names = use.mesh.axis_names or ()
        missing = [axis for axis in dict.fromkeys(use.spec.mesh_axes) if axis not in names]
        if not missing:
            return
        axis = missing[0]
        close = difflib.get_close_matches(axis, names, n=1)
        guess = f"; did you mean {close[0]!r}?" if close else ""
        hint = f" Did you mean {close[0]!r}?" if close else f" Use one of {', '.join(repr(n) for n in names)}."
        where = " (the mesh of the enclosing `jax.set_mesh`)" if use.context is not None else ""
        others = (
            f" ({len(missing) - 1} more name{'s' if len(missing) > 2 else ''} missing too)" if len(missing) > 1 else ""
        )
        spec = use.spec.describe()
        ctx.report(
            use.anchor,
            first_fitting(
                f"mesh axis {axis!r} of {spec} is not in the mesh {names}{guess}",
                f"mesh axis {axis!r} is not in the mesh {names}{guess}",
                f"mesh axis {axis!r} is not in the mesh{guess}",
                f"mesh axis {shorten(repr(axis))} is not in the mesh",
            ),
            detail=f"{spec} names {axis!r}, which {use.mesh.describe()}{where} does not have{others}: JAX raises "
            f'"Resource axis: {axis} of {jax_spec_text(use.spec)} is not found in mesh: {names}."{hint}',
        )

    def check_shard_map(self, site: ShardMapSite, ctx: CheckContext) -> None:
        """The specs and the collectives of a ``shard_map`` that is called, against its mesh."""
        mesh = site.mesh
        # Only the names matter here: a mesh sized by `jax.device_count()` still has known axes.
        if not isinstance(mesh, MeshValue) or mesh.axis_names is None or not site.applications:
            return
        names = mesh.axis_names
        for label, value, node in (
            ("in_specs", site.in_specs, site.in_specs_node),
            ("out_specs", site.out_specs, site.out_specs_node),
        ):
            if node is None or value is None:
                continue
            missing = [axis for spec in _specs(value) for axis in spec.mesh_axes if axis not in names]
            if missing:
                ctx.report(
                    node,
                    first_fitting(
                        f"`{label}` names mesh axis {missing[0]!r}, not in the shard_map's mesh {names}",
                        f"`{label}` names mesh axis {missing[0]!r}, not in the shard_map's mesh",
                    ),
                    detail=f"{mesh.describe()} has no axis {missing[0]!r}: calling the mapped function raises "
                    f'"ValueError: shard_map {label} argument must refer to an axis marked as manual … {label} '
                    f'refers to {missing[0]!r}".',
                )
        if _binds_other_axis_names(ctx):
            return
        for use in site.collectives:
            if use.axes is None or use.axis_node is None:
                continue
            missing = [axis for axis in use.axes if axis not in names]
            if not missing:
                continue
            axis = missing[0]
            raised = _UNBOUND_AXIS.get(use.primitive, "a bare AssertionError").format(axis=axis)
            ctx.report(
                use.axis_node,
                first_fitting(
                    f"`{use.primitive}` runs over axis {axis!r}, not in its shard_map's mesh {names}",
                    f"`{use.primitive}` runs over axis {axis!r}, not in its shard_map's mesh",
                ),
                detail=f"The mesh of its shard_map is {mesh.describe()}: tracing the body raises {raised}; use one "
                f"of {', '.join(repr(n) for n in names)}.",
            )


def _specs(value: Value) -> list[SpecValue]:
    """The literal specs of an ``in_specs``/``out_specs`` pytree."""
    if isinstance(value, SpecValue):
        return [value] if value.entries is not None else []
    if isinstance(value, Seq):
        return [spec for item in value.items for spec in _specs(item)]
    return []


def _binds_other_axis_names(ctx: CheckContext) -> bool:
    """Whether the module names axes another way (``vmap(..., axis_name=)``, ``pmap``): a collective may use those."""
    for node, scope in ctx.index.nodes.get(ast.Call, ()):
        assert isinstance(node, ast.Call)
        if any(keyword.arg == "axis_name" for keyword in node.keywords):
            callee = ctx.index.qualname(node.func, scope) or ""
            if not callee.startswith(("jax.lax.", "jax._src.lax.")):
                return True
        elif (ctx.index.qualname(node.func, scope) or "") in _NAMING_TRANSFORMS:
            return True
    return False
