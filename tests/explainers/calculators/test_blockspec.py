"""The BlockSpec calculator against Pallas (interpret mode and TPU cross-lowering), and its validation."""

from __future__ import annotations

from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError
from xlalens.explainers.calculators.blockspec import (
    CALCULATOR,
    BlockSpecInputs,
    compute_blockspec,
    parse_block,
)
from xlalens.explainers.calculators.dtypes import lookup

ORACLE_CASES: tuple[dict[str, str], ...] = (
    {"array": "1000,128", "block": "192,128"},
    {"array": "1000,128", "block": "192,128", "grid": "4,1"},
    {"array": "1000,128", "block": "192,128", "grid": "8,1"},
    {"array": "250,512", "block": "100,256"},
    {"array": "16,256", "block": "8,128", "index-map": "constant", "grid": "2,2"},
    {"array": "4,8,128", "block": "None,8,128"},
    {"array": "8,4,128", "block": "8,None,128"},
    {"array": "8,256", "block": "8,None"},
    {"array": "16,256", "dtype": "bf16", "block": "16,256", "index-map": "constant"},
    {"array": "16,256", "dtype": "i8", "block": "8,128"},
    {"array": "4,128", "block": "8,128"},
    {"array": "10,128", "block": "8,128", "grid": "1,1"},
    {"array": "300,200", "dtype": "bf16", "block": "64,200"},
    {"array": "48,384", "block": "12,96"},
    {"array": "1000", "block": "256"},
    {"array": "32,128", "block": "8,128", "grid": "2", "index-map": "lambda i: (2 * i, 0)"},
    {"array": "20,128", "block": "8,128", "grid": "2,1", "index-map": "lambda i, j: (i + 1, j)"},
    {"array": "16,128", "block": "8,128", "grid": "4", "index-map": "lambda i: (min(i, 1), 0)"},
    {"array": "24,256", "block": "8,128", "grid": "3,2,2", "index-map": "lambda i, j, k: (i, k)"},
    {"array": "40,128", "block": "8,128", "grid": "6", "index-map": "lambda i: (i // 2, 0)"},
)

_ORACLE = r"""
import json, sys
import numpy as np
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax._src.pallas.mosaic import tpu_info

# Cross-lowering for TPU on a CPU machine asks for the chip's figures (rank-1 blocks, some index
# arithmetic); JAX's own registry hook answers with a v5e's.
tpu_info.registry["cpu"] = lambda: tpu_info.get_tpu_info_for_chip(tpu_info.ChipVersion.TPU_V5E, 1)

def index_map(rank, constant):
    if constant:
        return lambda *grid: (0,) * rank
    return lambda *grid: tuple(grid)

def copy(x_ref, o_ref):
    o_ref[...] = x_ref[...]

def copy_into(x_ref, init_ref, o_ref):
    o_ref[...] = x_ref[...]

out = []
for case in json.load(sys.stdin):
    array, grid = tuple(case["array"]), tuple(case["grid"])
    block = tuple(case["block"])
    # A lambda index map is the calculator's own test text, written in this file; its min/max
    # are jnp.minimum/jnp.maximum in a real index map (Python's min needs concrete values).
    scope = {"min": jnp.minimum, "max": jnp.maximum}
    chosen = eval(case["lambda"], scope) if case["lambda"] else index_map(len(array), case["constant"])
    spec = pl.BlockSpec(block, chosen)
    answer = {"cdiv": [pl.cdiv(a, 1 if b is None else b) for a, b in zip(array, block)]}
    # Coverage: the output starts as zeros (aliased from an input) and the kernel copies ones into
    # every block it visits, so the zeros left are the elements no grid step wrote.
    call = pl.pallas_call(
        copy_into,
        grid=grid,
        in_specs=[spec, pl.BlockSpec(memory_space=pl.ANY)],
        out_specs=spec,
        out_shape=jax.ShapeDtypeStruct(array, jnp.float32),
        input_output_aliases={1: 0},
        interpret=True,
    )
    result = call(jnp.ones(array, jnp.float32), jnp.zeros(array, jnp.float32))
    answer["unwritten"] = int((result == 0).sum())
    # Lowering for TPU on a CPU-only machine runs the Pallas TPU block-shape check.
    dtype = jnp.dtype(case["dtype"])
    call = pl.pallas_call(
        copy, grid=grid, in_specs=[spec], out_specs=spec, out_shape=jax.ShapeDtypeStruct(array, dtype)
    )
    try:
        jax.export.export(jax.jit(call), platforms=["tpu"])(jax.ShapeDtypeStruct(array, dtype))
        answer["tpu"] = "ok"
    except ValueError as error:
        answer["tpu"] = str(error)
    out.append(answer)
print(json.dumps(out))
"""


def _case_json(query: dict[str, str]) -> dict[str, Any]:
    result = CALCULATOR.run(query)
    inputs = CALCULATOR.parse(query)
    return {
        "array": list(inputs.array),
        "block": list(inputs.block),
        "grid": list(result.grid),
        "constant": inputs.index_map == "constant",
        "lambda": inputs.index_map if inputs.index_map.startswith("lambda") else "",
        "dtype": lookup(inputs.dtype).name,
    }


@pytest.fixture(scope="module")
def jax_answers(run_jax: Any) -> list[dict[str, Any]]:
    return run_jax(_ORACLE, [_case_json(case) for case in ORACLE_CASES])


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(ORACLE_CASES)), ids=[f"case{i}" for i in range(len(ORACLE_CASES))])
def test_matches_pallas(index: int, jax_answers: list[dict[str, Any]]) -> None:
    result = CALCULATOR.run(ORACLE_CASES[index])
    answer = jax_answers[index]
    assert list(result.grid_needed) == answer["cdiv"]
    assert result.uncovered_elements == answer["unwritten"]
    if answer["tpu"] == "ok":
        assert result.tiling_problems == ()
    else:
        assert "Pallas TPU lowering currently requires" in answer["tpu"]
        assert result.tiling_problems
        assert result.status == "error"


def test_facts_example_padding() -> None:
    result = compute_blockspec(BlockSpecInputs((1000, 128), "f32", (192, 128)))
    axis = result.axes[0]
    assert (axis.needed, axis.last_start, axis.last_end, axis.size - axis.last_start, axis.padded) == (
        6,
        960,
        1151,
        40,
        152,
    )
    assert result.status == "warning"


def test_facts_example_matmul_vmem() -> None:
    # bf16 matmul blocks bm=512, bk=1024, bn=1024, double-buffered: 2 · (1 + 2 + 1) MiB = 8 MiB.
    total = sum(
        compute_blockspec(BlockSpecInputs(shape, "bf16", shape, index_map="blocked")).vmem_bytes
        for shape in ((512, 1024), (1024, 1024), (512, 1024))
    )
    assert total == 8 * 2**20


@pytest.mark.parametrize(
    ("dtype", "tpu", "block", "vmem_shape"),
    [
        ("f32", "v5e", (5, 100), (8, 128)),
        ("f32", "v5e", (3, 128), (4, 128)),
        ("f32", "v5e", (1, 128), (1, 128)),
        ("bf16", "v5e", (12, 128), (16, 128)),
        ("bf16", "v5e", (8, 128), (8, 128)),
        ("bf16", "7x", (8, 128), (8, 128)),
        ("bf16", "7x", (24, 128), (32, 128)),
        ("i8", "v5e", (40, 128), (64, 128)),
        ("i4", "v6e", (64, 256), (64, 256)),
        ("bool", "v5e", (8, 128), (8, 128)),
        ("f32", "v5e", (1000,), (1024,)),
        ("f32", "v5e", (300,), (512,)),
    ],
)
def test_vmem_tile_padding(dtype: str, tpu: str, block: tuple[int, ...], vmem_shape: tuple[int, ...]) -> None:
    result = compute_blockspec(BlockSpecInputs(block, dtype, block, tpu=tpu))
    assert result.vmem_shape == vmem_shape


def test_trivial_window_uses_one_buffer() -> None:
    result = CALCULATOR.run({"array": "1024,1024", "block": "1024,1024", "index-map": "constant"})
    assert result.trivial_window and result.buffers == 1
    assert result.vmem_bytes == 4 * 2**20
    assert result.status == "ok"


def test_vmem_over_scoped_limit_warns_and_over_capacity_errors() -> None:
    assert CALCULATOR.run({"array": "2048,2048", "block": "2048,2048"}).status == "warning"
    over = CALCULATOR.run({"array": "4096,4096", "block": "4096,4096", "tpu": "v4"})
    assert over.vmem_bytes == 128 * 2**20
    assert over.status == "error"


def test_rank_one_rule() -> None:
    assert CALCULATOR.run({"array": "1000", "block": "1000"}).tiling_problems == ()
    assert CALCULATOR.run({"array": "5000", "block": "2048"}).tiling_problems == ()
    assert CALCULATOR.run({"array": "5000", "dtype": "bf16", "block": "256"}).tiling_problems == ()
    assert CALCULATOR.run({"array": "5000", "dtype": "i8", "block": "256"}).tiling_problems
    assert CALCULATOR.run({"array": "1000", "block": "300"}).tiling_problems


def test_block_text_forms() -> None:
    assert parse_block("[8, 128]") == (8, 128)
    assert parse_block("(8,)") == (8,)
    assert parse_block("squeezed,8,128") == (None, 8, 128)


def test_round_trip() -> None:
    query = {"array": "8,1000,512", "dtype": "float32", "block": "None,192,128", "grid": "8,6,4", "tpu": "v6e"}
    inputs = CALCULATOR.parse(query)
    assert CALCULATOR.parse(CALCULATOR.query(inputs)) == inputs


@pytest.mark.parametrize(
    ("field", "text"),
    [
        ("array", ""),
        ("array", "0,128"),
        ("array", "-8,128"),
        ("array", "4611686018427387904"),
        ("array", "2147483648,2147483648"),
        ("array", "a,b"),
        ("block", ""),
        ("block", "8"),
        ("block", "8,128,1"),
        ("block", "0,128"),
        ("block", "8,x"),
        ("block", "-8,128"),
        ("block", "99999999999999999999999,1"),
        ("grid", "0,1"),
        ("grid", "2"),
        ("grid", "2,2,2"),
        ("grid", "x"),
        ("grid", "2147483648,2147483648"),
        ("index-map", "diagonal"),
        ("tpu", "v3"),
        ("buffers", "3"),
        ("buffers", "0"),
        ("buffers", "two"),
        ("dtype", "int3"),
    ],
)
def test_bad_input_names_the_field(field: str, text: str) -> None:
    query = {"array": "1000,512", "block": "192,128", field: text}
    with pytest.raises(CalculatorInputError) as error:
        CALCULATOR.run(query)
    assert error.value.field == field


def test_lambda_index_map_block_indices() -> None:
    result = CALCULATOR.run(
        {"array": "512,128", "block": "128,128", "grid": "4", "index-map": "lambda i: (i * 128, 0)"}
    )
    axis = result.axes[0]
    assert (axis.low, axis.high, axis.past_end, result.past_end_steps) == (0, 384, True, 3)
    assert result.uncovered_elements == 3 * 128 * 128
    assert result.status == "warning"


def test_lambda_index_map_padding_of_the_visited_last_block() -> None:
    result = CALCULATOR.run(
        {"array": "1000,128", "block": "192,128", "grid": "6,1", "index-map": "lambda i, j: (i, j)"}
    )
    blocked = CALCULATOR.run({"array": "1000,128", "block": "192,128"})
    assert result.axes[0].last_visited and result.axes[0].padded == 152
    assert (result.padded_elements, result.uncovered_elements) == (blocked.padded_elements, blocked.uncovered_elements)


def test_lambda_index_map_must_fit_grid_and_array() -> None:
    with pytest.raises(CalculatorInputError) as error:
        CALCULATOR.run({"array": "16,128", "block": "8,128", "grid": "2", "index-map": "lambda i, j: (i, j)"})
    assert error.value.field == "index-map" and "takes 2 grid indices but the grid has 1 axes" in error.value.message
    with pytest.raises(CalculatorInputError) as error:
        CALCULATOR.run({"array": "16,128", "block": "8,128", "grid": "2", "index-map": "lambda i: (i,)"})
    assert error.value.field == "index-map" and "returns 1 block indices" in error.value.message
    with pytest.raises(CalculatorInputError) as error:
        CALCULATOR.run({"array": "16,128", "block": "8,128", "index-map": "lambda i: (i, 0)"})
    assert error.value.field == "grid"


def test_large_grids_use_the_corners() -> None:
    result = CALCULATOR.run(
        {"array": "1048576,128", "block": "8,128", "grid": "131072,1", "index-map": "lambda i, j: (i, j)"}
    )
    axis = result.axes[0]
    assert not axis.exact and (axis.low, axis.high) == (0, 131071)
    assert result.past_end_steps is None and result.uncovered_elements == 0


def test_other_buffers_and_vmem_limit() -> None:
    # The facts' bf16 matmul: 2 · (1 + 2 + 1) MiB blocks plus a 2 MiB f32 accumulator = 10 MiB.
    query = {
        "array": "4096,4096",
        "dtype": "bf16",
        "block": "512,1024",
        "grid": "8,4,4",
        "index-map": "lambda i, j, k: (i, k)",
        "other-buffers": "y=2x1024,1024 bf16; out=2x512,1024 bf16; acc=1x512,1024 f32",
    }
    result = CALCULATOR.run(query)
    assert result.total_vmem_bytes == 10 * 2**20 and result.status == "ok"
    limited = CALCULATOR.run({**query, "vmem-limit": str(8 * 2**20)})
    assert limited.vmem_limit_given and limited.vmem_over_limit and limited.status == "error"
    assert "VMEM 10.0 MiB of 8.0 MiB scoped limit (vmem_limit_bytes from the code" in limited.headline
    assert CALCULATOR.parse(CALCULATOR.query(CALCULATOR.parse(query))) == CALCULATOR.parse(query)


@pytest.mark.parametrize(
    ("field", "text"),
    [
        ("other-buffers", "w=0x8,128 f32"),
        ("other-buffers", "w=2x8,128"),
        ("other-buffers", "w=2x8,x f32"),
        ("other-buffers", "w=2x8,128 f99"),
        ("index-map", "lambda i: (i.x, 0)"),
        ("index-map", "lambda *i: i"),
        ("index-map", "lambda i: (i // 0, 0)"),
        ("vmem-limit", "0"),
    ],
)
def test_bad_new_inputs_name_the_field(field: str, text: str) -> None:
    query = {"array": "1000,512", "block": "192,128", "grid": "6,4", "index-map": "lambda i, j: (i, j)", field: text}
    with pytest.raises(CalculatorInputError) as error:
        CALCULATOR.run(query)
    assert error.value.field == field
