"""Inlay hints and hovers for torch_xla ``xs.mark_sharding``: what each device holds.

Every ``xs.mark_sharding(t, mesh, partition_spec)`` (or ``mark_sharding_with_gradients``) whose
tensor shape, mesh and spec the source fixes (:mod:`.torch_xla_spmd`), and that torch_xla accepts
(one spec entry per dimension, every axis in the mesh and named once: what TX302-TX304 check),
gets a hint after the call: the per-device buffer shape, how many devices hold each shard, and how
much padding an uneven cut adds (``per device [2,4], 2 replicas, last 2 padded``). torch_xla pads
an uneven cut instead of rejecting it: each device holds ``ceil(size / k)`` entries of a
dimension cut ``k`` ways, and the devices at its end hold fewer real ones. The dtype shows only
when the tensor's constructor says it (``dtype=torch.bfloat16``). A hover shows the shard-shape
calculator's table in its torch_xla mode.

Meshes without axis names, and meshes or shapes built from the device count (unknown to a hint),
get no hint.

Examples:
    >>> code = '''
    ... import numpy as np
    ... import torch
    ... import torch_xla.distributed.spmd as xs
    ... mesh = xs.Mesh(np.arange(8), (4, 2), ("x", "y"))
    ... t = torch.randn(6, 4)
    ... xs.mark_sharding(t, mesh, ("x", None))
    ... '''
    >>> from xlalens.analyzers.annotate import hints_for_source
    >>> [hint.label for hint in hints_for_source(code, "torch_xla_sharding")]
    ['per device [2,4], 2 replicas, last 2 padded']
"""

from __future__ import annotations

import ast

from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.hints import SpanHint, register_hint_provider
from xlalens.analyzers.models.torch_xla.spmd import ShardingSite, format_spec, sharding_site, spmd_model
from xlalens.analyzers.semantics.interpreter import Interpreter
from xlalens.analyzers.semantics.names import BindingKind, ModuleIndex, Scope
from xlalens.explainers.calculators import dtypes
from xlalens.explainers.calculators.fields import CalculatorInputError
from xlalens.explainers.calculators.shard_shape import (
    ShardShapeInputs,
    ShardShapeResult,
    SpecEntry,
    compute_shard_shape,
)

SHARD_SHAPE_CALCULATOR = "shard-shape"


def torch_xla_sharding_hints(index: ModuleIndex, interpreter: Interpreter, text: SourceText) -> list[SpanHint]:
    """One hint per ``mark_sharding`` call whose per-device shard is known, in source order."""
    del interpreter  # torch_xla values come from the SPMD model, not the JAX interpreter
    hints = []
    for node, scope in index.nodes.get(ast.Call, []):
        if index.qualname(node.func, scope) not in tx.SPMD_MARK_SHARDING:
            continue
        site = sharding_site(spmd_model(index, None), node, scope)
        if site is None:
            continue
        dtype = _tensor_dtype(index, site, scope)
        inputs = _calculator_inputs(site, dtype)
        if inputs is None:
            continue
        result = compute_shard_shape(inputs)
        if result.errors or result.shard_shape is None:
            continue
        hints.append(_hint(site, inputs, result, text, dtype_known=dtype is not None))
    return sorted(hints, key=lambda hint: hint.position)


register_hint_provider("torch_xla_sharding", torch_xla_sharding_hints)


def _calculator_inputs(site: ShardingSite, dtype: str | None) -> ShardShapeInputs | None:
    """The calculator's inputs in torch_xla mode, or None unless shape, mesh and spec are all known and valid."""
    mesh, tensor = site.mesh, site.tensor
    if mesh is None or tensor is None or mesh.shape is None or mesh.axis_names is None:
        return None
    sizes = mesh.shape
    if None in sizes or None in tensor.shape or len(mesh.axis_names) != len(sizes):
        return None
    translated = site.translated()
    if translated is None or len(translated) != len(tensor.shape):
        return None
    names = mesh.axis_names
    used = [index for entry in translated for index in (entry if isinstance(entry, tuple) else (entry,))]
    if any(not (isinstance(i, int) and 0 <= i < len(names)) for i in used if i is not None):
        return None
    if len(set(used)) != len(used) or len(set(names)) != len(names):
        return None

    def entry(value: object) -> SpecEntry:
        if value is None:
            return None
        if isinstance(value, tuple):
            return tuple(names[i] for i in value)
        assert isinstance(value, int)
        return names[value]

    try:
        return ShardShapeInputs(
            tuple(zip(names, (int(size) for size in sizes if size is not None), strict=True)),
            tuple(int(d) for d in tensor.shape if d is not None),
            dtype or "f32",
            tuple(entry(value) for value in translated),
            framework="torch_xla",
        )
    except CalculatorInputError:
        return None  # a scalar, or sizes beyond what the calculator takes


def _tensor_dtype(index: ModuleIndex, site: ShardingSite, scope: Scope) -> str | None:
    """The dtype ``dtype=`` gives the tensor's constructor, followed through one ``=`` binding and
    ``.to(<device call>)``; None when anything on the way could change or hide it."""
    expr = site.call.args[0] if site.call.args else None
    for _ in range(8):
        if isinstance(expr, ast.Name):
            expr, scope_or_none = _assigned_value(index, expr.id, scope)
            if scope_or_none is None:
                return None
            scope = scope_or_none
        elif _is_device_move(expr):
            assert isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)
            expr = expr.func.value
        else:
            break
    if not isinstance(expr, ast.Call) or index.qualname(expr.func, scope) not in tx.TENSOR_SIZE_FACTORIES:
        return None
    dtype = next((k.value for k in expr.keywords if k.arg == "dtype"), None)
    name = index.qualname(dtype, scope) if dtype is not None else None
    if name is None or not name.startswith("torch."):
        return None
    found = dtypes.torch_dtype(name.removeprefix("torch."))
    return found.short if found is not None else None


def _is_device_move(expr: ast.expr | None) -> bool:
    """``t.to(torch_xla.device())`` or ``t.to(device=...)``: moves the tensor, keeps its dtype."""
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "to"):
        return False
    if expr.keywords:
        return not expr.args and all(k.arg == "device" for k in expr.keywords)
    return len(expr.args) == 1 and isinstance(expr.args[0], ast.Call)


def _assigned_value(index: ModuleIndex, name: str, scope: Scope) -> tuple[ast.expr | None, Scope | None]:
    """The value of a name's single ``name = value`` binding, and the scope it is in."""
    found = index.lookup(name, scope)
    if found is None:
        return None, None
    owner, bindings = found
    if len(bindings) != 1 or bindings[0].kind is not BindingKind.ASSIGN:
        return None, None
    target = bindings[0].node
    for node in ast.walk(index.tree):
        if isinstance(node, ast.Assign) and any(t is target for t in node.targets):
            return node.value, owner
    return None, None


def _hint(
    site: ShardingSite, inputs: ShardShapeInputs, result: ShardShapeResult, text: SourceText, *, dtype_known: bool
) -> SpanHint:
    assert result.shard_shape is not None and site.tensor is not None and site.mesh is not None
    # torch prints a tensor's size without its dtype; the dtype shows only when the code gives it.
    shard = dtypes.aval(inputs.dtype if dtype_known else "", result.shard_shape)
    copies = result.replication
    label = f"per device {shard}" + (f", {copies} replicas" if copies > 1 else "")
    padded = result.padded_dims
    if len(padded) == 1 and padded[0].axis == 0:
        label += f", last {padded[0].padding} padded"
    elif padded:
        label += ", padded " + ", ".join(f"axis {dim.axis} by {dim.padding}" for dim in padded)
    description = (
        f"tensor {site.tensor.describe()} with spec {format_spec(site.spec.values if site.spec else ())} "
        f"on {site.mesh.describe()}: each device holds {shard}"
        + (f", and {copies} devices hold each shard" if copies > 1 else ", one shard per device")
        + "".join(
            f"; array axis {dim.axis} of size {dim.size} is cut {dim.factor} ways into blocks of "
            f"{dim.padded_block}, {dim.padding} of them padding"
            for dim in padded
        )
    )
    inputs_json: dict[str, object] = {
        "mesh": [list(axis) for axis in inputs.mesh],
        "shape": list(inputs.shape),
        "dtype": inputs.dtype if dtype_known else None,
        "spec": [list(entry) if isinstance(entry, tuple) else entry for entry in inputs.spec],
        "framework": "torch_xla",
    }
    return SpanHint(
        position=text.node_range(site.call).end,
        target="shard",
        label=label,
        description=description,
        span=text.node_range(site.call),
        calculator=SHARD_SHAPE_CALCULATOR,
        inputs=inputs_json,
    )
