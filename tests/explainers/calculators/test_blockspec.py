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
)

_ORACLE = r"""
import json, sys
import numpy as np
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

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
    spec = pl.BlockSpec(block, index_map(len(array), case["constant"]))
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
    if len(array) >= 2:
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
    if "tpu" in answer:
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
