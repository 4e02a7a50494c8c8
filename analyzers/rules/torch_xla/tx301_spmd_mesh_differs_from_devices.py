"""TX301: an ``xs.Mesh`` whose device ids, shape and axis names do not fit together."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.torch_xla.spmd import DeviceIds, Items, SpmdMesh, SpmdModel, product, spmd_model


def _shape_text(shape: tuple[int | None, ...], given: object) -> str:
    """The shape as torch_xla prints the argument it was given (a list prints as a list)."""
    text = ", ".join("?" if size is None else str(size) for size in shape)
    if isinstance(given, Items) and given.is_list:
        return f"[{text}]"
    return f"({text}{',' if len(shape) == 1 else ''})"


def _names_text(names: tuple[str, ...], given: object) -> str:
    return repr(list(names)) if isinstance(given, Items) and given.is_list else repr(names)


def _numpy_text(ids: tuple[int, ...]) -> str:
    """A short 1-D integer array as numpy prints it: ``[0 0 1 2]``."""
    return "[" + " ".join(str(i) for i in ids) + "]"


@register_rule
class SpmdMeshDiffersFromDevices(Rule):
    """## What it does
    Finds an `xs.Mesh(device_ids, mesh_shape, axis_names)` that torch_xla rejects when it is built:
    a number of device ids that differs from the number of devices (the `device-count` setting,
    when given), a `mesh_shape` whose product differs from the number of device ids, a number of
    axis names that differs from the number of mesh dimensions, repeated axis names, and literal
    device ids that repeat or reach past the mesh size. For `xs.HybridMesh` it checks the axis
    names against `ici_mesh_shape`, and on a single slice the product of `ici_mesh_shape` against
    the device count.

    Ids built from `xr.global_runtime_device_count()` always match the device count; the shape is
    checked against them when the `device-count` setting says how many there are (or the shape is
    written in terms of that count).

    ## Why is this bad?
    A torch_xla mesh must use every device, each once: `Mesh.__init__` asserts `Number of device
    IDs (8) must match the global number of devices (4)`, `Number of device IDs (8) must match
    mesh size (16)`, `Number of axis names (1) must match mesh dimensions (2)`, `Axis names must be
    unique`, `Device IDs must be unique` and `Device IDs must be less than mesh size`, in that
    order. These are Python `assert`s: under `python -O` they vanish and the mismatch surfaces
    later, as a failed compile.

    ## Example
    ```python
    import numpy as np
    import torch_xla.distributed.spmd as xs
    import torch_xla.runtime as xr

    xr.use_spmd()
    num_devices = xr.global_runtime_device_count()
    mesh = xs.Mesh(np.arange(num_devices), (num_devices // 2, 2), ("data",))
    ```

    Use instead:
    ```python
    import numpy as np
    import torch_xla.distributed.spmd as xs
    import torch_xla.runtime as xr

    xr.use_spmd()
    num_devices = xr.global_runtime_device_count()
    mesh = xs.Mesh(np.arange(num_devices), (num_devices // 2, 2), ("data", "model"))
    ```

    ## Options
    - `device-count`: the number of devices the code runs on; with it, literal device id lists
      and shapes are checked against the real count.

    ## References
    - torch_xla source: `torch_xla/distributed/spmd/xla_sharding.py`, `Mesh.__init__`, `HybridMesh`
    - torch_xla docs: "PyTorch/XLA SPMD User Guide" (`docs/source/perf/spmd_basic.md`)
    """

    code = "TX301"
    raises = ("AssertionError", "ValueError")
    message = "torch_xla SPMD mesh whose device ids, shape or axis names do not fit together"
    explainer = "sharding#torch-xla-mesh"
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = tx.SPMD_MESH | tx.SPMD_HYBRID_MESH

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        qualname = ctx.qualname(node.func)
        if qualname in tx.SPMD_MESH:
            self.check_mesh(node, ctx)
        elif qualname in tx.SPMD_HYBRID_MESH:
            self.check_hybrid_mesh(node, ctx)

    def check_mesh(self, node: ast.Call, ctx: CheckContext) -> None:
        model = spmd_model(ctx.index, ctx.settings.device_count)
        ids = model.ids_of_call(node, ctx.scope)
        mesh = model.mesh_of_call(node, ctx.scope)
        devices = ctx.settings.device_count
        ids_expr = model.argument(node, 0, "device_ids")
        shape_expr = model.argument(node, 1, "mesh_shape")
        names_expr = model.argument(node, 2, "axis_names")
        if (
            ids is not None
            and ids_expr is not None
            and not ids.all_devices
            and devices is not None
            and ids.count is not None
            and ids.count != devices
        ):
            ctx.report(
                ids_expr,
                f"{ids.count} device ids for {devices} devices (the `device-count` setting)",
                detail=f'torch_xla asserts "Number of device IDs ({ids.count}) must match the global number of '
                f'devices ({devices})". A mesh uses every device once, e.g. '
                "`np.arange(xr.global_runtime_device_count())`.",
            )
            return
        if self.check_names(mesh, names_expr, shape_expr, model, ctx):
            return
        count = self.id_count(ids, devices)
        needed = None if mesh.shape is None else product(mesh.shape)
        if count is not None and needed is not None and shape_expr is not None and count != needed:
            shape = _shape_text(mesh.shape or (), model.value(shape_expr, ctx.scope))
            ctx.report(
                shape_expr,
                f"mesh_shape {shape} holds {needed} devices but the mesh is given {count} device ids",
                detail=f'torch_xla asserts "Number of device IDs ({count}) must match mesh size ({needed})"'
                + (
                    ""
                    if ids is not None and ids.all_devices
                    else " (or first that the ids do not match the device count)"
                )
                + ". Make the product of mesh_shape equal the number of devices.",
            )
            return
        if ids is not None and ids.ids is not None and ids_expr is not None:
            self.check_ids(ids, needed, ids_expr, ctx)

    @staticmethod
    def id_count(ids: DeviceIds | None, devices: int | None) -> int | None:
        if ids is None:
            return None
        if ids.count is not None:
            return ids.count
        return devices if ids.all_devices else None

    @staticmethod
    def check_names(
        mesh: SpmdMesh,
        names_expr: ast.expr | None,
        shape_expr: ast.expr | None,
        model: SpmdModel,
        ctx: CheckContext,
        what: str = "mesh_shape",
    ) -> bool:
        """Report axis names that do not fit the shape (given by ``shape_expr``) or repeat; whether it reported."""
        names = mesh.axis_names
        if names_expr is None or not mesh.names_known or names is None:
            return False
        given = model.value(names_expr, ctx.scope)
        given_shape = model.value(shape_expr, ctx.scope) if shape_expr is not None else None
        if isinstance(given_shape, Items) and len(names) != len(given_shape.values):
            rank = len(given_shape.values)
            shape = _shape_text(tuple(model.size(v) for v in given_shape.values), given_shape)
            ctx.report(
                names_expr,
                f"{len(names)} axis names {_names_text(names, given)} for the {rank} dimensions of {what} {shape}",
                detail=f'torch_xla asserts "Number of axis names ({len(names)}) must match mesh dimensions '
                f'({rank})". Give one name per mesh dimension.',
            )
            return True
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            ctx.report(
                names_expr,
                f"axis name {repeated[0]!r} appears {names.count(repeated[0])} times in {_names_text(names, given)}",
                detail=f'torch_xla asserts "Axis names must be unique, got: {_names_text(names, given)}". Name each '
                "mesh dimension differently.",
            )
            return True
        return False

    @staticmethod
    def check_ids(ids: DeviceIds, size: int | None, ids_expr: ast.expr, ctx: CheckContext) -> None:
        assert ids.ids is not None
        values = ids.ids
        repeated = sorted({i for i in values if values.count(i) > 1})
        if repeated:
            ctx.report(
                ids_expr,
                f"device id {repeated[0]} appears {values.count(repeated[0])} times in the mesh's device ids",
                detail=f'torch_xla asserts "Device IDs must be unique, got: {_numpy_text(values)}". List each device '
                "once.",
            )
            return
        if size is not None and any(i >= size for i in values):
            ctx.report(
                ids_expr,
                f"device id {max(values)} is not below the mesh size {size}",
                detail=f'torch_xla asserts "Device IDs must be less than mesh size ({size}), got: '
                f'{_numpy_text(values)}". Use the ids 0 to {size - 1}.',
            )

    def check_hybrid_mesh(self, node: ast.Call, ctx: CheckContext) -> None:
        if node.args:
            return
        model = spmd_model(ctx.index, ctx.settings.device_count)
        ici, dcn, dcn_given = model.hybrid_shapes(node, ctx.scope)
        ici_expr = model.argument(node, None, "ici_mesh_shape")
        dcn_expr = model.argument(node, None, "dcn_mesh_shape")
        if ici is None or ici_expr is None:
            return
        if dcn_given and dcn is not None and dcn_expr is not None and len(dcn) != len(ici):
            ctx.report(
                dcn_expr,
                f"dcn_mesh_shape has {len(dcn)} dimensions but ici_mesh_shape has {len(ici)}",
                detail="`HybridMesh` fails a bare `assert len(ici_mesh_shape) == len(dcn_mesh_shape)`. Give both "
                "shapes the same rank.",
            )
            return
        devices = ctx.settings.device_count
        needed = product(ici)
        single_slice = dcn is not None and all(size == 1 for size in dcn)
        if single_slice and devices is not None and needed is not None and needed != devices:
            shape = _shape_text(ici, model.value(ici_expr, ctx.scope))
            ctx.report(
                ici_expr,
                f"ici_mesh_shape {shape} holds {needed} devices but there are {devices} (the `device-count` setting)",
                detail=f'On one slice `HybridMesh` raises "ValueError: Number of devices {devices} must equal the '
                f'product of mesh_shape {shape}".',
            )
            return
        mesh = model.value(node, ctx.scope)
        if isinstance(mesh, SpmdMesh):
            names_expr = model.argument(node, None, "axis_names")
            self.check_names(mesh, names_expr, ici_expr, model, ctx, what="ici_mesh_shape")
