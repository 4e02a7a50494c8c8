"""JX408: a TPU kernel whose blocks and scratch need more VMEM than its scoped limit."""

from __future__ import annotations

import ast
from typing import ClassVar

from xlalens.analyzers.core.diagnostics import Severity, first_fitting
from xlalens.analyzers.engine.check_context import CheckContext
from xlalens.analyzers.engine.registry import register_rule
from xlalens.analyzers.engine.rule import Rule
from xlalens.analyzers.models.pallas.model import PallasInstance
from xlalens.analyzers.models.pallas.values import PALLAS_CALL_NAMES
from xlalens.analyzers.rules.jax._pallas import (
    call_site,
    pallas_site,
    shape_text,
)
from xlalens.explainers.calculators.blockspec import (
    GIVEN_LIMIT_LABEL,
    SCOPED_LIMIT_LABEL,
    TPUS,
    BufferBytes,
    buffer_bytes,
)
from xlalens.explainers.calculators.units import format_bytes


@register_rule
class KernelExceedsScopedVmem(Rule):
    """## What it does
    Adds up the VMEM a `pl.pallas_call` compiled for TPU needs — every VMEM block times its
    buffer count (2 by default, 1 for `pl.Buffered(1)` and for a whole-array block with a
    constant index map), padded to the memory tile, plus VMEM scratch shapes — and reports the
    kernel when the total exceeds its scoped VMEM limit: `vmem_limit_bytes` from
    `pltpu.CompilerParams` when the code sets it, otherwise the default of the configured TPU
    generation. When some buffers are unknown the known ones are a lower bound, reported only if
    they alone exceed the limit.

    ## Why is this bad?
    The Pallas TPU pipeline keeps two copies of every input and output block in VMEM so the next
    block's copy overlaps the current step's compute. A kernel whose buffers do not fit fails to
    compile on the chip ("Ran out of memory in memory space vmem", "exceeded scoped vmem limit"),
    while it runs fine in interpret mode on a CPU. The estimate is a lower bound: Mosaic also
    needs internal scratch.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu


    def add(x_ref, y_ref, o_ref):
        o_ref[...] = x_ref[...] + y_ref[...]


    x = jnp.zeros((8192, 8192), jnp.float32)
    spec = pl.BlockSpec((1024, 2048), lambda i, j: (i, j))
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    y = pl.pallas_call(add, out_shape=out, grid=(8, 4), in_specs=[spec, spec], out_specs=spec)(x, x)
    ```

    Use instead:
    ```python
    import jax
    import jax.numpy as jnp
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import tpu as pltpu


    def add(x_ref, y_ref, o_ref):
        o_ref[...] = x_ref[...] + y_ref[...]


    x = jnp.zeros((8192, 8192), jnp.float32)
    spec = pl.BlockSpec((512, 1024), lambda i, j: (i, j))
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    y = pl.pallas_call(add, out_shape=out, grid=(16, 8), in_specs=[spec, spec], out_specs=spec)(x, x)
    ```

    Smaller blocks, `pipeline_mode=pl.Buffered(1)` for a block that is the same at every step,
    or a larger `vmem_limit_bytes` (up to the chip's VMEM) fix it.

    ## Options
    `tpu-generation` in `[tool.xlalens]` (`v4`, `v5e`, `v5p`, `v6e`, `7x`; default `v5e`) picks
    the default scoped limit: 16 MiB on v4/v5e/v5p, 32 MiB on v6e, 64 MiB on 7x. libtpu does not
    publish these; they are values seen in compiler logs. `vmem_limit_bytes` in the code wins.

    ## References
    - JAX docs: "Pipelining" on TPU, multiple buffering (`docs/pallas/tpu/pipelining.md`)
    - `pltpu.CompilerParams(vmem_limit_bytes=…)` (`jax/_src/pallas/mosaic/core.py`)
    - XLA error code 1001, "Compile Time Scoped Vmem OOM"
    """

    code = "JX408"
    message = "kernel needs more VMEM than its scoped limit"
    explainer = "pallas-blockspec#double-buffering-and-vmem"
    calculator = "blockspec"
    severity = Severity.WARNING
    node_types: ClassVar[tuple[type[ast.AST], ...]] = (ast.Call,)
    needs_traced = False
    call_names = PALLAS_CALL_NAMES

    def check(self, node: ast.AST, ctx: CheckContext) -> None:
        site = pallas_site(ctx, node)
        if site is None:
            return
        for instance in site.instances:
            if instance.targets_tpu:
                self.check_instance(node, instance, ctx)

    def check_instance(self, node: ast.AST, instance: PallasInstance, ctx: CheckContext) -> None:
        tpu = TPUS[instance.model.tpu]
        found = [use.vmem_buffer() for use in instance.uses]
        buffers = [buffer_bytes(b, tpu) for b in found if b is not None]
        buffers += [buffer_bytes(b, tpu) for b in instance.scratch_buffers()]
        total = sum(b.bytes for b in buffers)
        given = instance.vmem_limit
        limit = given if given is not None else tpu.scoped_limit_bytes
        if not buffers or total <= limit:
            return
        complete = instance.vmem_complete()
        over_capacity = complete and total > tpu.vmem_bytes
        source = GIVEN_LIMIT_LABEL if given is not None else f"{SCOPED_LIMIT_LABEL}; tpu-generation {tpu.name}"
        parts = ", ".join(self.describe(b) for b in sorted(buffers, key=lambda b: -b.bytes))
        capacity = ""
        if over_capacity:
            capacity = f"; that is more than the {format_bytes(tpu.vmem_bytes)} of VMEM a {tpu.name} core has"
        main = next((use for use in instance.uses if use.link_inputs() is not None), None)
        anchor = node.func if isinstance(node, ast.Call) else node
        needs = f"kernel needs {'' if complete else 'at least '}{format_bytes(total)} of VMEM"
        over = f"over its {format_bytes(limit)} scoped limit ({'vmem_limit_bytes' if given is not None else tpu.name})"
        core = f"; a {tpu.name} core has {format_bytes(tpu.vmem_bytes)}" if over_capacity else ""
        ctx.report(
            anchor,
            first_fitting(f"{needs}, {over}{core}", f"{needs}, {over}"),
            detail=f"The scoped limit is {format_bytes(limit)} ({source}){instance.call_text()}; the buffers: "
            f'{parts}{capacity}. Mosaic fails to compile it on the TPU ("Ran out of memory in memory space vmem"); '
            "use smaller blocks, pl.Buffered(1) for blocks that do not change between steps, or raise "
            "vmem_limit_bytes.",
            severity=Severity.ERROR if given is not None or over_capacity else None,
            related=call_site(ctx, instance),
            calculator=main.link_inputs() if main is not None else None,
        )

    @staticmethod
    def describe(buffer: BufferBytes) -> str:
        """``args[0] 2 · (1024, 2048) f32 = 16.0 MiB``."""
        padded = "" if buffer.vmem_shape == buffer.shape else f" (padded to {shape_text(buffer.vmem_shape)})"
        size = format_bytes(buffer.bytes)
        return f"{buffer.name} {buffer.count} · {shape_text(buffer.shape)}{padded} {buffer.dtype} = {size}"
