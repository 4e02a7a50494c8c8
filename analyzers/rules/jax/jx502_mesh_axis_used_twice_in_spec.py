"""JX502: one mesh axis appears twice in a PartitionSpec."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import first_fitting, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.sharding.model import NAMED_SHARDING, PLACING_CALLS, jax_spec_text, sharding_model
from xlalens.analyzers.models.sharding.shard_map import PARTIAL, SHARD_MAP_NAMES, ShardMapSite, shard_map_sites
from xlalens.analyzers.models.sharding.values import MeshValue, SpecValue
from xlalens.analyzers.semantics.values import Seq, Value


@register_rule
class MeshAxisUsedTwiceInSpec(Rule):
    """## What it does
    Finds a `PartitionSpec` that names the same mesh axis twice, in two entries (`P('x', 'x')`)
    or inside one tuple entry (`P(('x', 'x'))`), where it meets a mesh: in `NamedSharding(mesh,
    spec)`, as a bare spec under `with jax.set_mesh(mesh):`, or in the `in_specs`/`out_specs` of a
    called `shard_map` on an Auto mesh.

    ## Why is this bad?
    A mesh axis splits at most one array dimension: the devices along it each hold one slice of
    that dimension, so they cannot also slice another. JAX raises `DuplicateSpecError: A single
    NamedSharding spec specification can map every mesh axis to at most one positional
    dimension, but P('x', 'x') has duplicate entries for `x`` when the sharding is built. To
    split two dimensions, use two mesh axes; to split one dimension over several axes, list
    each once in a tuple.

    ## Example
    ```python
    import jax
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"))
    sharding = NamedSharding(mesh, P("x", "x"))
    ```

    Use instead:
    ```python
    import jax
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"))
    sharding = NamedSharding(mesh, P("x", "y"))
    ```

    ## References
    - `jax/_src/named_sharding.py`, `check_pspec` and `DuplicateSpecError`
    """

    code = "JX502"
    raises = ("DuplicateSpecError",)
    message = "a mesh axis appears twice in one PartitionSpec"
    explainer = "sharding#each-axis-once"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = NAMED_SHARDING | PLACING_CALLS | SHARD_MAP_NAMES | {PARTIAL}

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        for use in sharding_model(ctx.index, ctx.interpreter).specs_at(node):
            # with_sharding_constraint words the check after its own argument.
            kind = "shardings" if use.api == "with_sharding_constraint" else "NamedSharding spec"
            self.check_spec(use.spec, use.anchor, kind, ctx)
        for site in shard_map_sites(ctx):
            if site.call is node:
                self.check_shard_map(site, ctx)

    def check_shard_map(self, site: ShardMapSite, ctx: CheckContext) -> None:
        """The specs of a called ``shard_map`` on an Auto mesh (on an Explicit one JAX first checks that
        ``in_specs`` match the arguments' shardings)."""
        mesh = site.mesh
        if not isinstance(mesh, MeshValue) or set(mesh.axis_types or ()) != {"Auto"} or not site.applications:
            return
        for value, node in ((site.in_specs, site.in_specs_node), (site.out_specs, site.out_specs_node)):
            if value is None or node is None:
                continue
            for spec in _specs(value):
                if self.check_spec(spec, node, "NamedSharding spec", ctx):
                    return

    def check_spec(self, spec: SpecValue, anchor: ast.expr, kind: str, ctx: CheckContext) -> bool:
        """Report the first axis ``spec`` names twice; whether there was one."""
        names = spec.mesh_axes
        repeated = [axis for axis in dict.fromkeys(names) if names.count(axis) > 1]
        if not repeated:
            return False
        axis = repeated[0]
        dims = [str(d) for d, entry in enumerate(spec.entries or ()) if axis in entry.axes]
        where = f"dimensions {' and '.join(dims)}" if len(dims) > 1 else f"dimension {dims[0]} (twice in one tuple)"
        ctx.report(
            anchor,
            first_fitting(
                f"mesh axis {axis!r} splits {where} of {spec.describe()}",
                f"mesh axis {shorten(repr(axis))} splits {where} of one PartitionSpec",
            ),
            detail='A mesh axis may split one dimension only: JAX raises "DuplicateSpecError: A single '
            f"{kind} specification can map every mesh axis to at most one positional dimension, but "
            f'{jax_spec_text(spec)} has duplicate entries for `{axis}`".',
        )
        return True


def _specs(value: Value) -> list[SpecValue]:
    """The literal specs of an ``in_specs``/``out_specs`` pytree."""
    if isinstance(value, SpecValue):
        return [value] if value.entries is not None else []
    if isinstance(value, Seq):
        return [spec for item in value.items for spec in _specs(item)]
    return []
