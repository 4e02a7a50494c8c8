"""TX302: an ``xs.mark_sharding`` partition spec with more or fewer entries than the tensor has dimensions."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Applicability, Fix
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.knowledge import torch_xla as tx
from xlalens.analyzers.models.torch_xla.spmd import ShardingSite, format_spec, sharding_site, spmd_model


def _entries(count: int) -> str:
    return f"{count} entr{'y' if count == 1 else 'ies'}"


@register_rule
class MarkShardingSpecLengthDiffersFromRank(Rule):
    """## What it does
    Finds `xs.mark_sharding(t, mesh, partition_spec)` (or `xs.mark_sharding_with_gradients`) where
    the spec has more or fewer entries than the tensor has dimensions, when both are known: the
    tensor comes from a constructor with a literal shape (`torch.randn(8, 4)`,
    `torch.zeros((8, 4), device=device)`, then `.to(device)` and the like) and the spec is a tuple
    or list written in the file.

    ## Why is this bad?
    torch_xla needs exactly one spec entry per tensor dimension: `None` for a replicated
    dimension, an axis name or index for a sharded one. `mark_sharding` asserts `Partition spec
    length (1) should be equal to the input rank (2).` before it does anything else. JAX's
    `PartitionSpec` may be shorter than the rank (the missing trailing dimensions are replicated),
    so a spec carried over from JAX code often trips this.

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
    xs.mark_sharding(batch, mesh, ("data",))
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

    ## Fix safety
    When a spec written in the call is shorter than the rank, the fix appends `None` entries, which
    replicates the trailing dimensions (what the same spec means in JAX). It is unsafe: the spec
    may have been meant for a tensor of a different rank, or for other dimensions.

    ## References
    - torch_xla source: `torch_xla/distributed/spmd/xla_sharding.py`, `mark_sharding`
    - torch_xla docs: "PyTorch/XLA SPMD User Guide" (`docs/source/perf/spmd_basic.md`)
    """

    code = "TX302"
    raises = ("AssertionError",)
    message = "mark_sharding partition spec length differs from the tensor rank"
    explainer = "sharding#torch-xla-spec-length"
    fix_title = "Append `None` for each unsharded trailing dimension"
    fix_availability = FixAvailability.SOMETIMES
    needs_traced = False
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    call_names: ClassVar[frozenset[str] | None] = tx.SPMD_MARK_SHARDING

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        assert isinstance(node, ast.Call)
        if ctx.qualname(node.func) not in tx.SPMD_MARK_SHARDING:
            return
        site = sharding_site(spmd_model(ctx.index, ctx.settings.device_count), node, ctx.scope)
        if site is None or site.tensor is None or site.spec is None:
            return
        length, rank = len(site.spec.values), len(site.tensor.shape)
        if length == rank:
            return
        missing = rank - length
        if missing == 1:
            advice = "Add None for the last dimension if it is not sharded."
        elif missing > 1:
            advice = f"Add None for each of the last {missing} dimensions that are not sharded."
        else:
            advice = f"Remove {_entries(-missing)}."
        ctx.report(
            site.spec_expr,
            f"spec {format_spec(site.spec.values)} has {_entries(length)} but the tensor is {rank}-D "
            f"{site.tensor.describe()}",
            detail='torch_xla needs one entry per dimension and asserts "Partition spec length '
            f'({length}) should be equal to the input rank ({rank})." {advice}',
            fix=self.pad_fix(site, rank, ctx),
        )

    def pad_fix(self, site: ShardingSite, rank: int, ctx: CheckContext) -> Fix | None:
        spec = site.spec_expr
        if not isinstance(spec, ast.Tuple) or len(spec.elts) >= rank or not spec.elts:
            return None
        text = ctx.segment(spec)
        if not (text.startswith("(") and text.endswith(")")):
            return None
        entries = [ctx.segment(item) for item in spec.elts] + ["None"] * (rank - len(spec.elts))
        padding = ", ".join(["None"] * (rank - len(spec.elts)))
        return ctx.fix(
            f"Append {padding} to the spec", Applicability.UNSAFE, [ctx.edit(spec, f"({', '.join(entries)})")]
        )
