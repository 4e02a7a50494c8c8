"""JX503: a PartitionSpec with more entries than the array it shards has dimensions."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import RelatedLocation, first_fitting, shorten
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.sharding.model import PLACING_CALLS, Placement, aval_text, sharding_model
from xlalens.analyzers.models.sharding.shard_map import SHARD_MAP_NAMES

JIT_SITES = frozenset({"jax.jit", "jax.experimental.pjit.pjit", "functools.partial"})


def placement_related(ctx: CheckContext, placement: Placement) -> list[RelatedLocation]:
    """For an argument of a jitted or shard_map-ped function: the ``in_shardings``/``in_specs`` that split it."""
    keyword = {"jit": "in_shardings", "jit-out": "out_shardings", "shard_map": "in_specs"}.get(placement.api)
    if keyword is None:
        return []
    return [
        RelatedLocation(
            ctx.path,
            ctx.source.node_range(placement.sharding_node),
            f"`{keyword}={ctx.segment(placement.sharding_node)}` gives the argument its sharding",
        )
    ]


def reported_node(placement: Placement) -> ast.expr:
    """Where a finding about a placement goes: the argument of a call of a jitted or mapped function, else the
    sharding given at the call."""
    return placement.array_node if placement.api in ("jit", "jit-out", "shard_map") else placement.sharding_node


def placement_subject(ctx: CheckContext, placement: Placement) -> str:
    """```x` (f32[6,4]) at `jax.device_put```, for messages."""
    what = f"`{ctx.segment(placement.array_node)}` ({aval_text(placement.array)})"
    if placement.api == "jit-out":
        return f"the result of `{ctx.segment(placement.call.func)}` ({aval_text(placement.array)}), a jitted function,"
    if placement.api in ("jit", "shard_map"):
        kind = "jitted" if placement.api == "jit" else "shard_map-ped"
        return f"{what}, an argument of the {kind} `{ctx.segment(placement.call.func)}`,"
    return f"{what} at `{placement.api}`"


def array_brief(ctx: CheckContext, placement: Placement) -> str:
    """```x` (f32[6,4])`` for a headline, the expression cut short."""
    return f"`{shorten(ctx.segment(placement.array_node))}` ({aval_text(placement.array)})"


@register_rule
class SpecLongerThanArrayRank(Rule):
    """## What it does
    Finds a `PartitionSpec` with more entries than the array it is applied to has dimensions:
    at `jax.device_put`, `jax.lax.with_sharding_constraint`, `jax.reshard`, at a call of a
    `jax.jit(f, in_shardings=...)` function (and its single result against `out_shardings=...`)
    and at a call of a `shard_map`-ped function (its `in_specs`), when the array's shape is known.

    ## Why is this bad?
    Entry `d` of a spec says how dimension `d` is split. A spec may be shorter than the rank (the
    remaining dimensions are not split) but not longer: there is no dimension for the extra
    entries, even `None` ones. JAX raises `ValueError: One of device_put args is incompatible
    with its sharding annotation NamedSharding(...): Sharding NamedSharding(...) is only valid
    for values of rank at least 2, but was applied to a value of rank 1` (the jit and
    `with_sharding_constraint` messages say "pjit arguments" and "with_sharding_constraint
    arguments"). Usually the spec was written for a batched array and used on an unbatched
    one.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"))
    bias = jax.device_put(jnp.zeros(8), NamedSharding(mesh, P("x", None)))
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = jax.make_mesh((4, 2), ("x", "y"))
    bias = jax.device_put(jnp.zeros(8), NamedSharding(mesh, P("x")))
    ```

    ## References
    - `jax/_src/named_sharding.py`, `NamedSharding.check_compatible_aval`
    """

    code = "JX503"
    raises = ("ValueError", "AssertionError")
    message = "a PartitionSpec is longer than the rank of the array it shards"
    explainer = "sharding#spec-length"
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names: ClassVar[frozenset[str] | None] = PLACING_CALLS | JIT_SITES | SHARD_MAP_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        for placement in sharding_model(ctx.index, ctx.interpreter).placements_at(node):
            shape, entries = placement.array.shape, placement.spec.entries
            if not placement.checks_rank or shape is None or entries is None or len(entries) <= len(shape):
                continue
            rank, length = len(shape), len(entries)
            types = set(placement.mesh.axis_types or ())
            sharded_past_rank = any(e.kind == "axes" for e in entries[rank:])
            if placement.api == "shard_map":
                raised = (
                    'JAX raises "shard_map applied to the function … was given an in_specs entry which is too long '
                    f'to be compatible with the corresponding input value … (and {rank} < {length})"'
                )
            elif types == {"Explicit"} and placement.api in ("device_put", "reshard") and sharded_past_rank:
                raised = f"JAX fails an internal assertion `AssertionError: ({rank}, {placement.spec.describe()})`"
            elif not types and placement.api == "device_put" and sharded_past_rank:
                raised = "JAX rejects it (a ValueError, or a bare AssertionError on an Explicit mesh)"
            else:
                raised = (
                    f'JAX raises "… is only valid for values of rank at least {length}, but was applied to a value '
                    f'of rank {rank}"'
                )
            spec = placement.spec.describe()
            ctx.report(
                reported_node(placement),
                first_fitting(
                    f"{spec} has {length} entries but {array_brief(ctx, placement)} has rank {rank}",
                    f"{spec} has {length} entries but the array has rank {rank}",
                    f"a spec of {length} entries for an array of rank {rank}",
                ),
                detail=f"{spec} has {length} entries; {placement_subject(ctx, placement)} has rank {rank}. A spec "
                f"may be shorter than the array's rank, not longer. {raised}.",
                related=placement_related(ctx, placement),
            )
