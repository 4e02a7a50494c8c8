"""JX501: a PartitionSpec names a mesh axis that the mesh does not have."""

from __future__ import annotations

import ast
import difflib
from typing import ClassVar

from xlalens.analyzers.context import CheckContext
from xlalens.analyzers.registry import register_rule
from xlalens.analyzers.rule import Rule
from xlalens.analyzers.sharding_model import (
    NAMED_SHARDING,
    PLACING_CALLS,
    SpecOnMesh,
    jax_spec_text,
    sharding_model,
)


@register_rule
class AxisNameNotInMesh(Rule):
    """## What it does
    Finds a `PartitionSpec` entry that names an axis the mesh does not have: in
    `NamedSharding(mesh, P(...))`, and in a bare `P(...)` given to `jax.device_put`,
    `jax.reshard` or `jax.lax.with_sharding_constraint` under `with jax.set_mesh(mesh):`.

    ## Why is this bad?
    Each name in a spec says which mesh axis splits that array dimension, so JAX looks every name
    up in the mesh. A name that is not there, usually a typo or a spec written for another mesh
    (`'data'` against a mesh of `('batch', 'model')`), raises `ValueError: Resource axis: z of
    P('z',) is not found in mesh: ('x', 'y').` as soon as the `NamedSharding` is built.

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
    message = "a PartitionSpec names a mesh axis the mesh does not have"
    explainer = "sharding#axis-names"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = NAMED_SHARDING | PLACING_CALLS

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        for use in sharding_model(ctx.index, ctx.interpreter).specs_at(node):
            self.check_spec(use, ctx)

    def check_spec(self, use: SpecOnMesh, ctx: CheckContext) -> None:
        names = use.mesh.axis_names or ()
        missing = [axis for axis in dict.fromkeys(use.spec.mesh_axes) if axis not in names]
        if not missing:
            return
        axis = missing[0]
        close = difflib.get_close_matches(axis, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; use one of {', '.join(repr(n) for n in names)}"
        where = " (the mesh of the enclosing `jax.set_mesh`)" if use.context is not None else ""
        others = (
            f" ({len(missing) - 1} more name{'s' if len(missing) > 2 else ''} missing too)" if len(missing) > 1 else ""
        )
        ctx.report(
            use.anchor,
            f"mesh axis {axis!r} of {use.spec.describe()} is not an axis of {use.mesh.describe()}{where}{others}: "
            f'JAX raises "Resource axis: {axis} of {jax_spec_text(use.spec)} is not found in mesh: {names}."{hint}',
        )
