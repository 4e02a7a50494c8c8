"""Inlay hints and hovers for sharded arrays: what each device holds.

Every placement of the sharding model (:mod:`.sharding_model`) whose array shape, mesh and spec
are all known — ``jax.device_put(x, NamedSharding(mesh, P('x', None)))``, a bare ``P(...)`` under
``jax.set_mesh``, an argument of a ``jax.jit(f, in_shardings=...)`` or ``shard_map``-ped function
— gets a hint with the per-device shard and how many devices hold each copy (``per device
f32[2,6], 2 replicas``), worked out by the shard-shape calculator: after the call, or after each
argument of a jitted or mapped function. A hover on it shows that calculator's table. Placements
JAX rejects get no hint: their diagnostic (JX503/JX504) carries the same calculator.

Examples:
    >>> code = '''
    ... import jax
    ... import jax.numpy as jnp
    ... from jax.sharding import NamedSharding, PartitionSpec as P
    ... mesh = jax.make_mesh((4, 2), ("x", "y"))
    ... x = jax.device_put(jnp.ones((8, 6)), NamedSharding(mesh, P("x", None)))
    ... '''
    >>> from xlalens.analyzers.annotate import hints_for_source
    >>> [hint.label for hint in hints_for_source(code, "sharding")]
    ['per device f32[2,6], 2 replicas']
"""

from __future__ import annotations

from collections.abc import Iterator

from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models.hints import SpanHint, register_hint_provider
from xlalens.analyzers.models.sharding.model import Placement, aval_text, link_inputs, shard_inputs, sharding_model
from xlalens.analyzers.models.sharding.shard_map import shard_map_model
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.values import Array
from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.shard_shape import compute_shard_shape

SHARD_SHAPE_CALCULATOR = "shard-shape"


def sharding_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> list[SpanHint]:
    """One hint per placement whose per-device shard is known, and one per ``shard_map`` body parameter
    whose per-device value is known, in source order."""
    hints: list[SpanHint] = list(_body_parameter_hints(index, interpreter, text))
    seen: set[int] = set()
    for placement in sharding_model(index, interpreter).all_placements():
        if id(placement.array_node) in seen:
            continue
        hint = _shard_hint(placement, text)
        if hint is not None:
            seen.add(id(placement.array_node))
            hints.append(hint)
    return sorted(hints, key=lambda hint: hint.position)


register_hint_provider("sharding", sharding_hints)


def _body_parameter_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> Iterator[SpanHint]:
    """``x: f32[8,512] per device`` after each parameter of a mapped function: the block the body sees."""
    for site in shard_map_model(index, interpreter):
        if site.body is None:
            continue
        local = site.local_args
        for param in site.body.args.args:
            value = local.get(param.arg)
            if not isinstance(value, Array) or value.dtype is None or value.shape is None or None in value.shape:
                continue
            block = dtypes.aval(value.dtype, value.shape)
            yield SpanHint(
                position=text.node_range(param).end,
                target="local",
                label=f"{block} per device",
                description=f"inside `shard_map` each device's `{param.arg}` is its own block, {block}, "
                "not the global array",
                span=text.node_range(param),
            )


def _axis_types_accepted(placement: Placement) -> bool:
    """Whether JAX accepts the spec's axes at this API: ``with_sharding_constraint`` names only Auto axes,
    ``reshard`` only Explicit ones (unknown types: not known to be accepted)."""
    wanted = {"with_sharding_constraint": "Auto", "reshard": "Explicit"}.get(placement.api)
    if wanted is None:
        return True
    mesh = placement.mesh
    if mesh.axis_types is None or mesh.axis_names is None or len(mesh.axis_types) != len(mesh.axis_names):
        return False
    types = dict(zip(mesh.axis_names, mesh.axis_types, strict=True))
    return all(types.get(axis) == wanted for axis in placement.spec.mesh_axes)


def _shard_hint(placement: Placement, text: SourceText) -> SpanHint | None:
    shape = placement.shape
    if shape is None or len(placement.spec.entries or ()) > len(shape) or not _axis_types_accepted(placement):
        return None
    inputs = shard_inputs(placement.mesh, placement.spec, shape, placement.array.dtype)
    if inputs is None:
        return None
    result = compute_shard_shape(inputs)
    if result.errors or result.shard_shape is None:
        return None
    shard = dtypes.aval(inputs.dtype if placement.array.dtype else None, result.shard_shape)
    copies = result.replication
    label = f"per device {shard}" + (f", {copies} replicas" if copies > 1 else "")
    where = {
        "jit": ", an argument of a jitted function,",
        "shard_map": ", an argument of a shard_map-ped function,",
    }.get(placement.api, f" at `{placement.api}`")
    description = (
        f"{aval_text(placement.array)}{where} with {placement.spec.describe()} on {placement.mesh.describe()}: "
        f"each device holds {shard}"
        + (f", and {copies} devices hold each shard" if copies > 1 else ", one shard per device")
    )
    # One array placed by device_put & co: the hint goes after the call; an argument of a jitted or
    # mapped function (or one array of a tuple) gets its own, after it.
    first_argument = placement.call.args[0] if placement.call.args else None
    whole_call = placement.api not in ("jit", "shard_map") and placement.array_node is first_argument
    anchor = placement.call if whole_call else placement.array_node
    return SpanHint(
        position=text.node_range(anchor).end,
        target="shard",
        label=label,
        description=description,
        span=text.node_range(anchor),
        calculator=SHARD_SHAPE_CALCULATOR,
        inputs=link_inputs(inputs, placement.array.dtype is not None),
    )
