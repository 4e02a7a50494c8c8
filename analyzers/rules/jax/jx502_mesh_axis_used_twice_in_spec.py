"""JX502: one mesh axis appears twice in a PartitionSpec."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.context import CheckContext
from xlalens.analyzers.registry import register_rule
from xlalens.analyzers.rule import Rule
from xlalens.analyzers.sharding_model import NAMED_SHARDING, PLACING_CALLS, jax_spec_text, sharding_model


@register_rule
class MeshAxisUsedTwiceInSpec(Rule):
    """## What it does
    Finds a `PartitionSpec` that names the same mesh axis twice, in two entries (`P('x', 'x')`)
    or inside one tuple entry (`P(('x', 'x'))`), where it meets a mesh: in `NamedSharding(mesh,
    spec)` or as a bare spec under `with jax.set_mesh(mesh):`.

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
    message = "a mesh axis appears twice in one PartitionSpec"
    explainer = "sharding#each-axis-once"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = NAMED_SHARDING | PLACING_CALLS

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        for use in sharding_model(ctx.index, ctx.interpreter).specs_at(node):
            names = use.spec.mesh_axes
            repeated = [axis for axis in dict.fromkeys(names) if names.count(axis) > 1]
            if not repeated:
                continue
            axis = repeated[0]
            dims = [str(d) for d, entry in enumerate(use.spec.entries or ()) if axis in entry.axes]
            where = f"dimensions {' and '.join(dims)}" if len(dims) > 1 else f"dimension {dims[0]} (twice in one tuple)"
            # with_sharding_constraint words the check after its own argument.
            kind = "shardings" if use.api == "with_sharding_constraint" else "NamedSharding spec"
            ctx.report(
                use.anchor,
                f"mesh axis {axis!r} splits {where} of {use.spec.describe()}; a mesh axis may split one dimension "
                f'only: JAX raises "DuplicateSpecError: A single {kind} specification can map every mesh axis to at '
                f'most one positional dimension, but {jax_spec_text(use.spec)} has duplicate entries for `{axis}`"',
            )
