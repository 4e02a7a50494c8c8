"""Inlay hints and hovers for sharded arrays: what each device holds.

Every placement of the sharding model (:mod:`.sharding_model`) whose array shape, mesh and spec
are all known — ``jax.device_put(x, NamedSharding(mesh, P('x', None)))``, a bare ``P(...)`` under
``jax.set_mesh``, an argument of a ``jax.jit(f, in_shardings=...)`` or ``shard_map``-ped function
— gets a hint with the per-device shard and how many devices hold each copy (``per device
f32[2,6], 2 replicas``), worked out by the shard-shape calculator: after the call, or after each
argument of a jitted or mapped function. A hover on it shows that calculator's table. When the
array placed by ``device_put``, ``reshard`` or ``with_sharding_constraint`` is a name bound once, in
the same scope, to an earlier such placement on the same mesh, the hover shows the reshard
calculator instead: the collective that moves it from the earlier spec to this one, and the bytes
each device receives. Placements JAX rejects get no hint: their diagnostic (JX503/JX504) carries
the shard-shape calculator.

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

import ast
from collections.abc import Iterator

from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models.hints import SpanHint, register_hint_provider
from xlalens.analyzers.models.sharding.model import (
    Placement,
    aval_text,
    calculator_spec,
    link_inputs,
    mesh_axes,
    shard_inputs,
    sharding_model,
)
from xlalens.analyzers.models.sharding.shard_map import shard_map_model
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.analyzers.semantics.values import Array
from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError
from xlalens.explainers.calculators.reshard import ReshardInputs, ReshardResult, compute_reshard
from xlalens.explainers.calculators.shard_shape import compute_shard_shape

SHARD_SHAPE_CALCULATOR = "shard-shape"
RESHARD_CALCULATOR = "reshard"
_MOVES = frozenset({"device_put", "reshard", "with_sharding_constraint"})
"""The placements that give an existing array a new layout (and whose result keeps it)."""


def sharding_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> list[SpanHint]:
    """One hint per placement whose per-device shard is known, and one per ``shard_map`` body parameter
    whose per-device value is known, in source order."""
    hints: list[SpanHint] = list(_body_parameter_hints(index, interpreter, text))
    seen: set[int] = set()
    placements = list(sharding_model(index, interpreter).all_placements())
    sources = _earlier_placements(index, placements)
    for placement in placements:
        if id(placement.array_node) in seen:
            continue
        hint = _shard_hint(placement, text, sources.get(id(placement.call)))
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


def _moves(placement: Placement) -> bool:
    """Whether the placement lays out its first argument anew (and its result is that array)."""
    return placement.api in _MOVES and bool(placement.call.args) and placement.array_node is placement.call.args[0]


def _earlier_placements(index: ModuleIndex, placements: list[Placement]) -> dict[int, Placement]:
    """For each moving placement of a name bound once in its scope to an earlier moving placement's result
    (``x = jax.device_put(a, s1)`` … ``jax.device_put(x, s2)``), that earlier placement, by call id."""
    by_call = {id(placement.call): placement for placement in placements if _moves(placement)}
    bound: dict[tuple[int, str], Placement] = {}
    for node, scope in index.nodes.get(ast.Assign, []):
        assert isinstance(node, ast.Assign)
        target = node.targets[0]
        earlier = by_call.get(id(node.value))
        # Bound once: every use of the name in this scope is that array, laid out as placed.
        once = isinstance(target, ast.Name) and len(scope.bindings.get(target.id, ())) == 1
        if len(node.targets) == 1 and isinstance(target, ast.Name) and once and earlier is not None:
            bound[(id(scope), target.id)] = earlier
    call_scopes = {id(node): scope for node, scope in index.nodes.get(ast.Call, [])}
    found: dict[int, Placement] = {}
    for placement in by_call.values():
        scope = call_scopes.get(id(placement.call))
        name = placement.array_node
        if scope is None or not isinstance(name, ast.Name):
            continue
        earlier = bound.get((id(scope), name.id))
        if earlier is not None and (earlier.call.lineno, earlier.call.col_offset) < (name.lineno, name.col_offset):
            found[id(placement.call)] = earlier
    return found


def _reshard_inputs(source: Placement, target: Placement) -> ReshardInputs | None:
    """The reshard calculator's inputs from ``source``'s spec to ``target``'s, when both are known on one mesh."""
    dtype, shape = target.array.dtype, target.shape
    if dtype is None or shape is None or source.shape != shape or source.array.dtype != dtype:
        return None
    if source.mesh.shape is None or target.mesh.shape is None or mesh_axes(source.mesh) != mesh_axes(target.mesh):
        return None
    before, after = calculator_spec(source.spec), calculator_spec(target.spec)
    if before is None or after is None or not _axis_types_accepted(source):
        return None
    try:
        return ReshardInputs(mesh_axes(target.mesh), shape, dtypes.short_name(dtype), before, after)
    except CalculatorInputError:
        return None  # a spec JAX rejects: its diagnostic says so


def _moved(source: Placement, result: ReshardResult) -> str:
    """How the array gets from its earlier layout to this one, for the hover's first line."""
    if result.collective == "none":
        return "the same layout as before, so nothing moves"
    if result.collective == "dynamic-slice":
        return "each device slices the block it already holds, so nothing moves"
    how = "all-gather then slice (at most)" if result.collective == "general" else result.collective
    return f"moving it from {source.spec.describe()} takes {how}, {result.received:,} bytes received per device"


def _shard_hint(placement: Placement, text: SourceText, source: Placement | None = None) -> SpanHint | None:
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
    moving = _reshard_inputs(source, placement) if source is not None else None
    if moving is not None and source is not None:
        moved = compute_reshard(moving)
        return SpanHint(
            position=text.node_range(anchor).end,
            target="shard",
            label=label,
            description=f"{description}; {_moved(source, moved)}",
            span=text.node_range(anchor),
            calculator=RESHARD_CALCULATOR,
            inputs={
                "mesh": [list(axis) for axis in moving.mesh],
                "shape": list(moving.shape),
                "dtype": moving.dtype,
                "source": [list(entry) if isinstance(entry, tuple) else entry for entry in moving.source],
                "target": [list(entry) if isinstance(entry, tuple) else entry for entry in moving.target],
            },
        )
    return SpanHint(
        position=text.node_range(anchor).end,
        target="shard",
        label=label,
        description=description,
        span=text.node_range(anchor),
        calculator=SHARD_SHAPE_CALCULATOR,
        inputs=link_inputs(inputs, placement.array.dtype is not None),
    )
