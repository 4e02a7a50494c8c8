"""TX304: an ``xs.mark_sharding`` partition spec that uses one mesh axis for two dimensions."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.torch_xla.spmd import ShardingSite, format_spec, sharding_site, spmd_model


@register_rule
class MarkShardingAxisUsedTwice(Rule):
    """## What it does
    Finds `xs.mark_sharding(t, mesh, partition_spec)` (or `xs.mark_sharding_with_gradients`) whose
    spec tuple uses one mesh axis more than once: the same name twice, a name and its index
    (`("x", 0)` when `"x"` is axis 0), or an axis inside a tuple entry and again elsewhere.

    ## Why is this bad?
    Each mesh axis splits the devices once, so it can shard at most one tensor dimension. torch_xla
    translates names to axis indices and asserts `Each device mesh dimension should appear at most
    once in partition_spec (0, 0).` To shard two dimensions, use two different mesh axes; to shard
    one dimension over several axes, list them once in a tuple entry (`(("x", "y"), None)`).

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
    weight = torch.randn(128, 64).to(torch_xla.device())
    xs.mark_sharding(weight, mesh, ("data", "data"))
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
    weight = torch.randn(128, 64).to(torch_xla.device())
    xs.mark_sharding(weight, mesh, ("data", "model"))
    ```

    ## References
    - torch_xla source: `torch_xla/distributed/spmd/xla_sharding.py`, `Mesh._get_op_sharding_args`
    """

    code = "TX304"
    raises = ("AssertionError",)
    message = "mark_sharding partition spec uses a mesh axis twice"
    explainer = "sharding#torch-xla-axis-once"
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = tx.SPMD_MARK_SHARDING

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.qualname(node.func) not in tx.SPMD_MARK_SHARDING:
            return
        site = sharding_site(spmd_model(ctx.index, ctx.settings.device_count), node, ctx.scope)
        if site is None or site.spec is None or site.spec.is_list:
            return
        found = self.repeated_axis(site)
        if found is not None:
            message, detail = found
            ctx.report(site.spec_expr, message, detail=detail)

    @staticmethod
    def repeated_axis(site: ShardingSite) -> tuple[str, str] | None:
        assert site.spec is not None
        mesh = site.mesh
        rank = None if mesh is None else mesh.rank
        seen: dict[object, object] = {}
        for axis, index in site.mesh_indices():
            if isinstance(axis, str) and index is None and mesh is not None and mesh.names_known:
                continue  # a name the mesh lacks: TX303's finding, and torch_xla stops there first
            if index is not None and rank is not None and not 0 <= index < rank:
                continue  # an index out of range: TX303's finding, asserted before repeats
            # Without the mesh's names only the same name (or the same index) twice is certain.
            key: object = ("index", index) if index is not None else ("name", axis)
            if key in seen:
                return MarkShardingAxisUsedTwice.describe(site, seen[key], axis)
            seen[key] = axis
        return None

    @staticmethod
    def describe(site: ShardingSite, first: object, second: object) -> tuple[str, str]:
        """The headline and detail of a mesh axis used twice in one spec."""
        assert site.spec is not None
        spec = format_spec(site.spec.values)
        names = [axis for axis in (first, second) if isinstance(axis, str)]
        shown = repr(names[0]) if names else repr(first)
        how = "" if first == second else f" (as {first!r} and as {second!r})"
        translated = site.translated()
        rank = None if site.mesh is None else site.mesh.rank
        in_range = rank is not None and all(index is None or 0 <= index < rank for _, index in site.mesh_indices())
        if in_range and translated is not None:
            quoted = (
                "torch_xla asserts "
                f'"Each device mesh dimension should appear at most once in partition_spec {format_spec(translated)}."'
            )
        else:
            quoted = (
                "torch_xla rejects it (when the mesh has that axis it asserts "
                '"Each device mesh dimension should appear at most once in partition_spec ...")'
            )
        end = "" if quoted.endswith('."') else "."  # torch_xla's own message ends with a period
        return (
            f"spec {spec} uses mesh axis {shown} twice{how}",
            f"A mesh axis can shard only one dimension, and {quoted}{end} Use a different axis, or None, for one of "
            "them.",
        )
