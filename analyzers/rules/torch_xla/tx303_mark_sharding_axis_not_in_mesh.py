"""TX303: an ``xs.mark_sharding`` partition spec that names an axis the mesh does not have."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.torch_xla.spmd import ShardingSite, format_spec, sharding_site, spmd_model


@register_rule
class MarkShardingAxisNotInMesh(Rule):
    """## What it does
    Finds `xs.mark_sharding(t, mesh, partition_spec)` (or `xs.mark_sharding_with_gradients`) whose
    spec tuple names a mesh axis the mesh does not have (an axis name not among its `axis_names`,
    or any name when the mesh was built without names), or gives an axis index outside
    `0 .. rank - 1` of the mesh, inside tuple entries too.

    ## Why is this bad?
    torch_xla turns every name into the index of that mesh axis, then checks the indices. An
    unknown name raises `ValueError: Axis name batch is not defined in the given mesh`; a name on a
    mesh made without `axis_names` raises `TypeError: argument of type 'NoneType' is not
    iterable`; an index out of range (negative ones included) fails the assertion
    `partition_spec ((0, 2)) contains out of bound index into mesh_shape.` Usually the spec was
    written for another mesh, or an axis was renamed.

    ## Example
    ```python
    import numpy as np
    import torch
    import torch_xla
    import torch_xla.distributed.spmd as xs
    import torch_xla.runtime as xr

    xr.use_spmd()
    num_devices = xr.global_runtime_device_count()
    mesh = xs.Mesh(np.arange(num_devices), (num_devices, 1), ("data", "model"))
    batch = torch.randn(16, 128).to(torch_xla.device())
    xs.mark_sharding(batch, mesh, ("batch", None))
    ```

    Use instead:
    ```python
    import numpy as np
    import torch
    import torch_xla
    import torch_xla.distributed.spmd as xs
    import torch_xla.runtime as xr

    xr.use_spmd()
    num_devices = xr.global_runtime_device_count()
    mesh = xs.Mesh(np.arange(num_devices), (num_devices, 1), ("data", "model"))
    batch = torch.randn(16, 128).to(torch_xla.device())
    xs.mark_sharding(batch, mesh, ("data", None))
    ```

    ## References
    - torch_xla source: `torch_xla/distributed/spmd/xla_sharding.py`, `_translate_named_partition_spec`,
      `Mesh._get_op_sharding_args`
    """

    code = "TX303"
    raises = ("AssertionError", "TypeError", "ValueError")
    message = "mark_sharding partition spec names an axis the mesh does not have"
    explainer = "sharding#torch-xla-spec-axes"
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = tx.SPMD_MARK_SHARDING

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.qualname(node.func) not in tx.SPMD_MARK_SHARDING:
            return
        site = sharding_site(spmd_model(ctx.index, ctx.settings.device_count), node, ctx.scope)
        if site is None or site.mesh is None or site.spec is None or site.spec.is_list:
            return
        found = self.unknown_name(site) or self.index_out_of_range(site)
        if found is not None:
            message, detail = found
            ctx.report(site.spec_expr, message, detail=detail)

    @staticmethod
    def unknown_name(site: ShardingSite) -> tuple[str, str] | None:
        mesh = site.mesh
        assert mesh is not None and site.spec is not None
        if not mesh.names_known:
            return None
        spec = format_spec(site.spec.values)
        for axis, index in site.mesh_indices():
            if not isinstance(axis, str) or index is not None:
                continue
            if mesh.axis_names is None:
                return (
                    f"spec {spec} names axis {axis!r} but the mesh was built without axis_names",
                    "torch_xla raises \"TypeError: argument of type 'NoneType' is not iterable\". Pass "
                    "axis_names to xs.Mesh or use the axis index.",
                )
            return (
                f"spec {spec} names axis {axis!r}, not in the {mesh.describe()}",
                f'torch_xla raises "ValueError: Axis name {axis} is not defined in the given mesh". Use one of '
                f"{', '.join(repr(name) for name in mesh.axis_names)}.",
            )
        return None

    @staticmethod
    def index_out_of_range(site: ShardingSite) -> tuple[str, str] | None:
        mesh = site.mesh
        assert mesh is not None and site.spec is not None
        rank = mesh.rank
        if rank is None:
            return None
        for axis, index in site.mesh_indices():
            if isinstance(axis, str) or index is None or 0 <= index < rank:
                continue
            translated = site.translated()
            quoted = (
                f'"partition_spec ({format_spec(translated)}) contains out of bound index into mesh_shape."'
                if translated is not None
                else '"partition_spec (...) contains out of bound index into mesh_shape."'
            )
            return (
                f"spec {format_spec(site.spec.values)} uses mesh axis index {index} but the {mesh.describe()} has "
                f"{rank} ax{'is' if rank == 1 else 'es'}",
                f"The mesh axis indices are 0 to {rank - 1}: torch_xla asserts {quoted}",
            )
        return None
