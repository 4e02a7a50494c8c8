"""JX504: an array dimension that the mesh axes splitting it do not divide evenly."""

from __future__ import annotations

import ast
import math
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import first_fitting
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.sharding.model import (
    PLACING_CALLS,
    Placement,
    jax_spec_text,
    link_inputs,
    shard_inputs,
    sharding_model,
)
from xlalens.analyzers.models.sharding.shard_map import SHARD_MAP_NAMES
from xlalens.analyzers.rules.jax.jx503_spec_longer_than_array_rank import (
    JIT_SITES,
    array_brief,
    placement_related,
    placement_subject,
    reported_node,
)
from xlalens.explainers.calculators.shard_shape import compute_shard_shape


@register_rule
class ShardedDimensionNotDivisible(Rule):
    """## What it does
    Finds an array dimension split over mesh axes whose sizes multiply to a number that does
    not divide it: at `jax.device_put`, at a call of a `jax.jit(f, in_shardings=...)` function
    (and its single result against `out_shardings=...`) or of a `shard_map`-ped function (its
    `in_specs`),
    at `jax.reshard` (Explicit meshes) and at `jax.lax.with_sharding_constraint` outside a trace
    (Auto meshes), when the array's shape and the mesh are known.

    ## Why is this bad?
    Each device along the splitting axes holds an equal slice, so the dimension must be a
    multiple of the product of their sizes. JAX raises `IndivisibleError: Sharding
    NamedSharding(...) implies that array axis 0 is partitioned 4 times, but the dimension size
    is 6` (on an Explicit mesh, `device_put` says `ValueError: Sharding spec ('x',) implies that
    array axis 0 is partitioned 4 times, but does not evenly divide the dimension size 6`).
    Inside a jitted function, `with_sharding_constraint` on an Auto mesh does allow an uneven
    split (XLA pads), so it is not reported there.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"))
    x = jax.device_put(jnp.ones((6, 4)), NamedSharding(mesh, P("x", None)))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"))
    x = jax.device_put(jnp.ones((8, 4)), NamedSharding(mesh, P("x", None)))
    ```

    ## References
    - `jax/_src/sharding.py`, `Sharding.shard_shape` and `IndivisibleError`
    - JAX docs: "Distributed arrays and automatic parallelization"
    """

    code = "JX504"
    raises = ("IndivisibleError", "ValueError")
    message = "a sharded array dimension is not divisible by the mesh axes that split it"
    explainer = "sharding#divisibility"
    calculator = "shard-shape"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = PLACING_CALLS | JIT_SITES | SHARD_MAP_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        for placement in sharding_model(ctx.index, ctx.interpreter).placements_at(node):
            self.check_placement(placement, ctx)

    def check_placement(self, placement: Placement, ctx: CheckContext) -> None:
        shape = placement.shape
        if not placement.checks_divisibility or shape is None:
            return
        inputs = shard_inputs(placement.mesh, placement.spec, shape, placement.array.dtype)
        if inputs is None or len(inputs.spec) > len(shape):
            return
        result = compute_shard_shape(inputs)
        uneven = [dim for dim in result.dims if not dim.divisible]
        if not uneven:
            return
        dim = uneven[0]
        sizes = [placement.mesh.size(axis) or 1 for axis in dim.mesh_axes]
        if len(dim.mesh_axes) == 1:
            over = f"mesh axis {dim.mesh_axes[0]!r} of size {dim.factor}"
            by = brief = f"mesh axis {dim.mesh_axes[0]!r} ({dim.factor})"
        else:
            axes = ", ".join(repr(a) for a in dim.mesh_axes)
            over = f"mesh axes ({axes}) of sizes {'·'.join(str(s) for s in sizes)} = {dim.factor}"
            by = f"mesh axes ({axes}) ({'·'.join(str(s) for s in sizes)} = {dim.factor})"
            brief = f"mesh axes ({axes}) ({dim.factor})"
        padded = math.ceil(dim.size / dim.factor) * dim.factor
        fitted = list(shape)
        fitted[dim.axis] = padded
        fitted_inputs = shard_inputs(placement.mesh, placement.spec, tuple(fitted), placement.array.dtype)
        per_device = compute_shard_shape(fitted_inputs).shard_shape if fitted_inputs is not None else None
        suggestion = ""
        if per_device is not None:
            dims = ",".join(str(d) for d in per_device)
            suggestion = f" A size of {padded} would give each device {inputs.dtype}[{dims}]."
        more = f" ({len(uneven) - 1} more dimension{'s' if len(uneven) > 2 else ''} too)" if len(uneven) > 1 else ""
        dimension = f"dimension {dim.axis} (size {dim.size})"
        ctx.report(
            reported_node(placement),
            first_fitting(
                f"{dimension} of {array_brief(ctx, placement)} is not divisible by {by}",
                f"{dimension} of {array_brief(ctx, placement)} is not divisible by {brief}",
                f"{dimension} is not divisible by {by}",
                f"{dimension} is not divisible by the {dim.factor} devices that split it",
            ),
            detail=f"Dimension {dim.axis} of {placement_subject(ctx, placement)} is split over {over} by "
            f"{placement.spec.describe()}: {dim.size} is not divisible by {dim.factor}{more}; "
            f"{self.raised(placement, dim.axis, dim.factor, dim.size)}.{suggestion}",
            related=placement_related(ctx, placement),
            calculator=link_inputs(inputs, placement.array.dtype is not None),
        )

    @staticmethod
    def raised(placement: Placement, axis: int, factor: int, size: int) -> str:
        """What JAX raises for this placement, quoted."""
        if placement.api == "shard_map":
            return (
                'JAX raises "shard_map applied to the function … was given argument arrays with axis sizes that are '
                f'not evenly divisible by the corresponding mesh axis sizes … {factor} does not evenly divide {size}"'
            )
        types = set(placement.mesh.axis_types or ())
        if not types and placement.api == "device_put":
            # The wording depends on the mesh's axis types, which are not known here.
            return f'JAX raises "… implies that array axis {axis} is partitioned {factor} times …"'
        if types == {"Explicit"} and placement.api in ("device_put", "reshard"):
            entry = placement.spec.entries[axis] if placement.spec.entries else None
            named = tuple(entry.axes) if entry is not None else ()
            return (
                f'JAX raises "ValueError: Sharding spec {named!r} implies that array axis {axis} is partitioned '
                f'{factor} times, but does not evenly divide the dimension size {size}"'
            )
        return (
            f'JAX raises "IndivisibleError: Sharding NamedSharding(…, spec={jax_spec_text(placement.spec)}, …) implies '
            f'that array axis {axis} is partitioned {factor} times, but the dimension size is {size}"'
        )
