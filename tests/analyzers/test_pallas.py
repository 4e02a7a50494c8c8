"""The Pallas model and rules beyond the fixtures: VMEM worked cases, call sites, targets, fixes, hints."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest
from xlalens.analyzers.annotate import hints_for_source
from xlalens.analyzers.api import check_source, fix_source
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.project.config import ConfigError, load_config
from xlalens.explainers.calculators.blockspec import CALCULATOR
from xlalens.explainers.calculators.units import format_bytes

MiB = 2**20
HEADER = """\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(*refs):
    pass


"""


def _codes(code: str, settings: Settings | None = None, select: str = "JX4") -> list[tuple[int, str]]:
    found = check_source(HEADER + textwrap.dedent(code), "kernels.py", settings or Settings(select=(select,)))
    lines = HEADER.count("\n")
    return [(d.line - lines, d.code) for d in found]


def _padded(rows: int, lanes: int, itemsize: int, row_tile: int = 8) -> int:
    """Bytes of one (rows, lanes) block padded to (row_tile, 128) tiles: the formula, written out."""
    return math.ceil(rows / row_tile) * row_tile * math.ceil(lanes / 128) * 128 * itemsize


# Five worked cases: the rule's VMEM total (through its calculator link, and in its message)
# against the formula Σ buffers · padded block bytes + scratch.
VMEM_CASES = [
    pytest.param(
        """
        x = jnp.zeros((4096, 4096), jnp.bfloat16)
        y = pl.pallas_call(
            kernel,
            out_shape=jax.ShapeDtypeStruct((4096, 4096), jnp.bfloat16),
            grid=(8, 4, 4),
            in_specs=[
                pl.BlockSpec((512, 1024), lambda i, j, k: (i, k)),
                pl.BlockSpec((1024, 1024), lambda i, j, k: (k, j)),
            ],
            out_specs=pl.BlockSpec((512, 1024), lambda i, j, k: (i, j)),
            scratch_shapes=[pltpu.VMEM((512, 1024), jnp.float32)],
            compiler_params=pltpu.CompilerParams(vmem_limit_bytes=8 * 1024 * 1024),
        )(x, x)
        """,
        2 * _padded(512, 1024, 2) + 2 * _padded(1024, 1024, 2) + 2 * _padded(512, 1024, 2) + _padded(512, 1024, 4),
        id="facts-bf16-matmul-10MiB",
    ),
    pytest.param(
        """
        x = jnp.zeros((8192, 8192), jnp.float32)
        spec = pl.BlockSpec((1024, 2048), lambda i, j: (i, j))
        out = jax.ShapeDtypeStruct(x.shape, x.dtype)
        y = pl.pallas_call(kernel, out_shape=out, grid=(8, 4), in_specs=[spec, spec], out_specs=spec)(x, x)
        """,
        3 * 2 * _padded(1024, 2048, 4),
        id="f32-add-48MiB",
    ),
    pytest.param(
        """
        x = jnp.zeros((5000, 1000), jnp.float32)
        spec = pl.BlockSpec((1000, 500), lambda i, j: (i, j))
        y = pl.pallas_call(
            kernel,
            out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
            grid=(5, 2),
            in_specs=[spec, spec],
            out_specs=spec,
            compiler_params=pltpu.CompilerParams(vmem_limit_bytes=10 * 1024 * 1024),
        )(x, x)
        """,
        3 * 2 * _padded(1000, 500, 4),
        id="lanes-padded-to-512",
    ),
    pytest.param(
        """
        x = jnp.zeros((4096, 1024), jnp.float32)
        w = jnp.zeros((1024, 1024), jnp.float32)
        y = pl.pallas_call(
            kernel,
            out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
            grid=(8,),
            in_specs=[pl.BlockSpec((512, 1024), lambda i: (i, 0)), pl.BlockSpec((1024, 1024), lambda i: (0, 0))],
            out_specs=pl.BlockSpec((512, 1024), lambda i: (i, 0), pipeline_mode=pl.Buffered(1)),
            compiler_params=pltpu.CompilerParams(vmem_limit_bytes=8 * 1024 * 1024),
        )(x, w)
        """,
        # x double-buffered, w a trivial window (one buffer), the output pl.Buffered(1).
        2 * _padded(512, 1024, 4) + _padded(1024, 1024, 4) + _padded(512, 1024, 4),
        id="trivial-window-and-buffered-1",
    ),
    pytest.param(
        """
        x = jnp.zeros((480, 1024), jnp.bfloat16)
        spec = pl.BlockSpec((20, 1024), lambda i: (i, 0))
        y = pl.pallas_call(
            kernel,
            out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
            grid=(24,),
            in_specs=[spec],
            out_specs=spec,
            scratch_shapes=[pltpu.VMEM((20, 1024), jnp.int8), pltpu.SMEM((8,), jnp.int32)],
            compiler_params=pltpu.CompilerParams(vmem_limit_bytes=100_000),
        )(x)
        """,
        # Before 7x, bf16 rows tile by 8 (20 -> 24); an int8 block shorter than its 32-row tile gets the
        # smallest power-of-two tile from 4 to 8 that covers it (8: 20 -> 24); SMEM is not VMEM.
        2 * 2 * _padded(20, 1024, 2) + _padded(20, 1024, 1),
        id="packed-dtypes-and-smem",
    ),
]


@pytest.mark.parametrize(("code", "expected"), VMEM_CASES)
def test_vmem_worked_cases(code: str, expected: int) -> None:
    found = check_source(HEADER + textwrap.dedent(code), "kernels.py", Settings(select=("JX408",)))
    assert [d.code for d in found] == ["JX408"]
    diagnostic = found[0]
    assert f"needs {format_bytes(expected)} of VMEM" in diagnostic.message
    assert diagnostic.calculator is not None
    name, inputs = diagnostic.calculator
    assert name == "blockspec"
    assert CALCULATOR.run(CALCULATOR.query(inputs)).total_vmem_bytes == expected


def test_facts_matmul_fits_the_default_limit() -> None:
    limit = "compiler_params=pltpu.CompilerParams(vmem_limit_bytes=8 * 1024 * 1024),"
    code = VMEM_CASES[0].values[0].replace(limit, "")
    assert _codes(code, select="JX408") == []


def test_vmem_severity_and_generation() -> None:
    code = """
    x = jnp.zeros((8192, 8192), jnp.float32)
    spec = pl.BlockSpec((1024, 1024), lambda i, j: (i, j))
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    y = pl.pallas_call(kernel, out_shape=out, grid=(8, 8), in_specs=[spec, spec], out_specs=spec)(x, x)
    """
    # 24 MiB: over v5e's 16 MiB default (a warning: the default is an observation), under v6e's 32 MiB.
    [warning] = check_source(HEADER + textwrap.dedent(code), "k.py", Settings(select=("JX408",)))
    assert warning.severity.value == "warning" and warning.message.endswith("over its 16.0 MiB scoped limit (v5e)")
    assert "tpu-generation v5e" in warning.detail
    assert _codes(code, Settings(select=("JX408",), tpu_generation="v6e")) == []
    [over] = check_source(HEADER + textwrap.dedent(code), "k.py", Settings(select=("JX408",), tpu_generation="v4"))
    assert over.severity.value == "error" and over.message.endswith("; a v4 core has 16.0 MiB")
    assert "16.0 MiB of VMEM a v4 core has" in over.detail


def test_wrapper_call_sites_give_the_shapes() -> None:
    code = """
    def tiles(x, rows=100):
        spec = pl.BlockSpec((rows, 256), lambda i, j: (i, j))
        out = jax.ShapeDtypeStruct(x.shape, x.dtype)
        grid = (pl.cdiv(x.shape[0], rows), 2)
        return pl.pallas_call(kernel, out_shape=out, grid=grid, in_specs=[spec], out_specs=spec)(x)


    x = jax.ShapeDtypeStruct((256, 512), jnp.float32)
    jax.export.export(jax.jit(tiles), platforms=["tpu"])(x)
    tiles(jnp.ones((256, 512)), rows=128)
    """
    text = HEADER + textwrap.dedent(code)
    found = check_source(text, "k.py", Settings(select=("JX407",)))
    # Only the export call (rows=100) breaks the rule; the direct call with rows=128 does not.
    assert [d.code for d in found] == ["JX407", "JX407"]
    assert all("when `jax.export.export(jax.jit(tiles)" in d.detail for d in found)
    export_line = text[: text.index("jax.export.export(")].count("\n") + 1
    assert found[0].related and found[0].related[0].range.start.line == export_line


def test_lists_changed_in_place_are_unknown() -> None:
    # jax/experimental/pallas/ops/gpu/attention.py appends a spec for an optional operand.
    code = """
    def attention(q, k, v, segment_ids=None):
        spec = pl.BlockSpec((8, 128), lambda i: (i, 0))
        in_specs = [spec, spec, spec]
        in_specs.append(None if segment_ids is None else spec)
        out = jax.ShapeDtypeStruct(q.shape, q.dtype)
        call = pl.pallas_call(kernel, out_shape=out, grid=(2,), in_specs=in_specs, out_specs=spec)
        return call(q, k, v, segment_ids)


    attention(jnp.ones((16, 128)), jnp.ones((16, 128)), jnp.ones((16, 128)))
    """
    assert _codes(code) == []


@pytest.mark.parametrize(
    ("imports", "settings", "expected"),
    [
        ("", Settings(select=("JX407",)), []),
        ("", Settings(select=("JX407",), target="tpu"), [(4, "JX407")]),
        ("from jax.experimental.pallas import tpu as pltpu\n", Settings(select=("JX407",)), [(4, "JX407")]),
        ("from jax.experimental.pallas import tpu as pltpu\n", Settings(select=("JX407",), target="gpu"), []),
        (
            "from jax.experimental.pallas import tpu as pltpu\nfrom jax.experimental.pallas import triton as plgpu\n",
            Settings(select=("JX407",)),
            [],
        ),
    ],
)
def test_tpu_target(imports: str, settings: Settings, expected: list[tuple[int, str]]) -> None:
    code = (
        "import jax\nimport jax.numpy as jnp\nfrom jax.experimental import pallas as pl\n"
        + imports
        + "x = jnp.ones((250, 512))\n"
        + "y = pl.pallas_call(lambda a, o: None, out_shape=x, grid=(5, 2), "
        + "in_specs=[pl.BlockSpec((50, 256), lambda i, j: (i, j))], "
        + "out_specs=pl.BlockSpec((50, 256), lambda i, j: (i, j)))(x)\n"
    )
    offset = imports.count("\n")
    # The in_specs and out_specs BlockSpecs on the same line are reported once each.
    assert {(d.line - offset, d.code) for d in check_source(code, "k.py", settings)} == {
        (line + 1, c) for line, c in expected
    }


def test_config_target_and_generation(tmp_path: Path) -> None:
    config = tmp_path / "xlalens.toml"
    config.write_text('target = "tpu"\ntpu-generation = "v6e"\n')
    settings = load_config(config)
    assert (settings.target, settings.tpu_generation) == ("tpu", "v6e")
    config.write_text('target = "npu"\n')
    with pytest.raises(ConfigError, match="`target` must be one of 'tpu', 'gpu'"):
        load_config(config)
    config.write_text('tpu-generation = "v3"\n')
    with pytest.raises(ConfigError, match="`tpu-generation` must be one of 'v4', 'v5e'"):
        load_config(config)


def test_element_offsets_fix_is_unsafe() -> None:
    code = HEADER + textwrap.dedent(
        """
        x = jnp.ones((512, 128))
        row = pl.BlockSpec((128, 128), lambda i: (i, 0))
        offsets = pl.BlockSpec((128, 128), lambda i: (i * 128, 0))
        y = pl.pallas_call(kernel, out_shape=x, grid=(4,), in_specs=[offsets], out_specs=row)(x)
        """
    )
    assert fix_source(code, "k.py").source == code
    fixed = fix_source(code, "k.py", unsafe=True)
    assert "offsets = pl.BlockSpec((128, 128), lambda i: (i, 0))" in fixed.source
    assert not [d for d in fixed.remaining if d.code.startswith("JX4")]


def test_display_only_fixes_suggest_sizes() -> None:
    code = """
    x = jnp.ones((1000, 128))
    rows = pl.BlockSpec((1, 128), lambda i: (i, 0))
    sums = jax.ShapeDtypeStruct((6, 128), x.dtype)
    blocks = pl.BlockSpec((192, 128), lambda i: (i, 0))
    y = pl.pallas_call(kernel, out_shape=sums, grid=(pl.cdiv(1000, 192),), in_specs=[blocks], out_specs=rows)(x)
    spec = pl.BlockSpec((192, 128), lambda i: (i, 0))
    z = pl.pallas_call(kernel, out_shape=x, grid=(1000 // 192,), in_specs=[spec], out_specs=spec)(x)
    """
    found = {d.code: d for d in check_source(HEADER + textwrap.dedent(code), "k.py", Settings(select=("JX4",)))}
    assert found["JX404"].fix is not None and found["JX404"].fix.edits[0].content == "200"
    assert found["JX405"].fix is not None and found["JX405"].fix.edits[0].content == "pl.cdiv(1000, 192)"
    assert all(d.fix is None or d.fix.applicability.value == "display-only" for d in found.values())


def test_hints_for_grid_and_block_origins() -> None:
    code = HEADER + textwrap.dedent(
        """
        x = jnp.ones((1000, 128))
        spec = pl.BlockSpec((200, 128), lambda i: (i, 0))
        y = pl.pallas_call(kernel, out_shape=x, grid=(5,), in_specs=[spec], out_specs=spec)(x)
        """
    )
    block, grid = hints_for_source(code, "pallas")
    assert (block.target, block.label) == ("block", "origin (200·i, 0)")
    assert (grid.target, grid.label) == ("grid", "5 steps")
    assert block.inputs is not None and block.inputs["index-map"] == "lambda i: (i, 0)"
    assert CALCULATOR.run(CALCULATOR.query(block.inputs)).total_vmem_bytes == 4 * 200 * 128 * 4


def test_the_model_is_kept_per_tpu_generation_and_target() -> None:
    import ast

    from xlalens.analyzers.models.extensions import module_interpreter
    from xlalens.analyzers.models.pallas.model import pallas_model
    from xlalens.analyzers.semantics.names import ModuleIndex

    code = "from jax.experimental import pallas as pl\n"
    index = ModuleIndex(ast.parse(code), {ast.Call})
    interpreter = module_interpreter(index)
    default = pallas_model(index, interpreter, code)
    v4 = pallas_model(index, interpreter, code, "v4", "tpu")
    assert (default.tpu, default.target) == ("v5e", None)
    assert (v4.tpu, v4.target) == ("v4", "tpu"), "a model built for other settings must not be reused"
    assert pallas_model(index, interpreter, code, "v4", "tpu") is v4
