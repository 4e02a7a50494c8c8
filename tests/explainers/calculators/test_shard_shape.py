"""The shard-shape calculator against ``NamedSharding`` on 8 CPU devices, and its input validation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError
from xlalens.explainers.calculators.dtypes import lookup
from xlalens.explainers.calculators.shard_shape import (
    CALCULATOR,
    ShardShapeInputs,
    compute_shard_shape,
    parse_mesh,
    parse_spec,
)

# (mesh, shape, dtype, spec, devices); the oracle always has 8 devices. int4 is left out because
# NumPy stores it one element per byte while the calculator counts it packed, two per byte.
ORACLE_CASES: tuple[dict[str, str], ...] = (
    {"mesh": "x:4,y:2", "shape": "8,6", "dtype": "f32", "spec": "x,None"},
    {"mesh": "x:4,y:2", "shape": "16,3", "dtype": "f32", "spec": "(x,y)"},
    {"mesh": "x:4,y:2", "shape": "8,6", "dtype": "bf16", "spec": "None,y"},
    {"mesh": "x:4,y:2", "shape": "3", "dtype": "f32", "spec": ""},
    {"mesh": "x:4,y:2", "shape": "16", "dtype": "i8", "spec": "(y,x)"},
    {"mesh": "x:4,y:2", "shape": "6,4", "dtype": "f32", "spec": "x"},
    {"mesh": "x:4,y:2", "shape": "6,5", "dtype": "f32", "spec": "x,y"},
    {"mesh": "x:4,y:2", "shape": "12,3", "dtype": "f32", "spec": "(x,y)"},
    {"mesh": "x:4,y:2", "shape": "8", "dtype": "f32", "spec": "z"},
    {"mesh": "x:4,y:2", "shape": "8,8", "dtype": "f32", "spec": "x,x"},
    {"mesh": "x:4,y:2", "shape": "8", "dtype": "f32", "spec": "x,y"},
    {"mesh": "x:4,y:4", "shape": "8", "dtype": "f32", "spec": "", "devices": "8"},
    {"mesh": "x:16", "shape": "8", "dtype": "f32", "spec": "", "devices": "8"},
    {"mesh": "x:2,y:2,z:2", "shape": "8,4,2", "dtype": "u8", "spec": "(x,z),y,None"},
    {"mesh": "x:3", "shape": "9,2", "dtype": "f16", "spec": "x", "devices": "8"},
    {"mesh": "data:2,model:4", "shape": "4096,8192", "dtype": "bf16", "spec": "None,model"},
)

_ORACLE = r"""
import json, sys
import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

def entry(item):
    return tuple(item) if isinstance(item, list) else item

out = []
for case in json.load(sys.stdin):
    answer = {}
    out.append(answer)
    try:
        mesh = jax.make_mesh(tuple(case["sizes"]), tuple(case["names"]))
    except ValueError as error:
        answer["mesh_error"] = str(error)
        continue
    try:
        sharding = NamedSharding(mesh, P(*[entry(item) for item in case["spec"]]))
    except Exception as error:
        answer["spec_error"] = str(error)
        continue
    shape = tuple(case["shape"])
    if len(case["spec"]) > len(shape):
        try:
            jax.jit(lambda a: a, in_shardings=sharding)(np.zeros(shape, np.float32))
        except ValueError as error:
            answer["rank_error"] = str(error)
        continue
    try:
        answer["shard_shape"] = list(sharding.shard_shape(shape))
    except Exception as error:
        answer["indivisible"] = str(error)
        continue
    array = jax.device_put(np.zeros(shape, dtype=jnp.dtype(case["dtype"])), sharding)
    shards = array.addressable_shards
    answer["device_shape"] = list(shards[0].data.shape)
    answer["replicas"] = len({shard.replica_id for shard in shards})
    answer["devices"] = len({shard.device for shard in shards})
    answer["shard_bytes"] = int(shards[0].data.nbytes)
    answer["global_bytes"] = int(array.nbytes)
    indices = sharding.devices_indices_map(shape)
    answer["slices"] = [
        [[part.start or 0, size if part.stop is None else part.stop] for part, size in zip(indices[device], shape)]
        for device in mesh.devices.flat
    ]
print(json.dumps(out))
"""


def _case_json(query: dict[str, str]) -> dict[str, Any]:
    inputs = CALCULATOR.parse(query)
    return {
        "sizes": [size for _, size in inputs.mesh],
        "names": [name for name, _ in inputs.mesh],
        "shape": list(inputs.shape),
        "dtype": lookup(inputs.dtype).name,
        "spec": [list(entry) if isinstance(entry, tuple) else entry for entry in inputs.spec],
    }


@pytest.fixture(scope="module")
def jax_answers(run_jax: Any) -> list[dict[str, Any]]:
    return run_jax(_ORACLE, [_case_json(case) for case in ORACLE_CASES], devices=8)


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(ORACLE_CASES)), ids=[f"case{i}" for i in range(len(ORACLE_CASES))])
def test_matches_jax(index: int, jax_answers: list[dict[str, Any]]) -> None:
    result = CALCULATOR.run(ORACLE_CASES[index])
    answer = jax_answers[index]
    if "mesh_error" in answer:
        assert result.status == "error"
        assert answer["mesh_error"] in result.errors
    elif "spec_error" in answer:
        assert result.status == "error"
        assert answer["spec_error"] in result.errors
    elif "rank_error" in answer:
        match = re.search(r"rank at least (\d+), but was applied to a value of rank (\d+)", answer["rank_error"])
        assert match, answer["rank_error"]
        assert result.status == "error"
        assert f"has {match[1]} entries but the array has rank {match[2]}" in result.errors[0]
    elif "indivisible" in answer:
        # JAX names only the first dimension that does not divide; the calculator lists them all.
        match = re.search(
            r"array axis (\d+) is partitioned (\d+) times, but the dimension size is (\d+)", answer["indivisible"]
        )
        assert match, answer["indivisible"]
        axis, factor, size = match.groups()
        assert result.status == "error"
        assert result.shard_shape is None
        assert result.errors[0].startswith(f"array axis {axis} (size {size}) is split {factor} ways")
    else:
        assert result.status in ("ok", "warning")
        assert list(result.shard_shape) == answer["shard_shape"] == answer["device_shape"]
        assert result.replication == answer["replicas"]
        assert result.mesh_devices == answer["devices"]
        assert result.shard_bytes == answer["shard_bytes"]
        assert result.global_bytes == answer["global_bytes"]
        slices = result.device_slices()
        if slices is not None:
            assert [[list(part) for part in ranges] for _, ranges in slices] == answer["slices"]


def test_facts_examples() -> None:
    mesh = parse_mesh("x:4,y:2")
    assert compute_shard_shape(ShardShapeInputs(mesh, (8, 6), "f32", parse_spec("x,None"))).shard_shape == (2, 6)
    assert compute_shard_shape(ShardShapeInputs(mesh, (16, 3), "f32", parse_spec("(x,y)"))).shard_shape == (2, 3)
    assert compute_shard_shape(ShardShapeInputs(mesh, (8, 6), "f32", parse_spec("None,y"))).shard_shape == (8, 3)


def test_every_problem_is_listed() -> None:
    result = CALCULATOR.run({"mesh": "x:4,y:2", "shape": "8", "spec": "z,x,x", "devices": "4"})
    assert result.status == "error"
    assert len(result.errors) == 4
    assert result.errors[0] == "Number of devices 4 must be >= the product of mesh_shape (4, 2)"


def test_idle_devices_warn() -> None:
    result = CALCULATOR.run({"mesh": "x:2", "shape": "8", "spec": "x", "devices": "8"})
    assert result.status == "warning"
    assert "6 of 8 devices are not in the mesh" in result.headline


def test_spec_forms() -> None:
    assert parse_spec("P('x', None)") == ("x", None)
    assert parse_spec("PartitionSpec(('x', 'y'),)") == (("x", "y"),)
    assert parse_spec("(x,)") == (("x",),)
    assert parse_spec("None") == (None,)


def test_round_trip() -> None:
    query = {"mesh": "x:4,y:2", "shape": "8,6", "dtype": "bfloat16", "spec": "(x,y),None", "devices": "8"}
    inputs = CALCULATOR.parse(query)
    assert inputs.dtype == "bf16"
    assert CALCULATOR.parse(CALCULATOR.query(inputs)) == inputs


@pytest.mark.parametrize(
    ("field", "text"),
    [
        ("mesh", ""),
        ("mesh", "x"),
        ("mesh", "x:4,x:2"),
        ("mesh", "x:0"),
        ("mesh", "x:-1"),
        ("mesh", "x:4;y:2"),
        ("mesh", "x:99999999999999999999999999"),
        ("mesh", "x:2048,y:1024"),
        ("mesh", "1x:4"),
        ("shape", ""),
        ("shape", "-1"),
        ("shape", "8,a"),
        ("shape", "4611686018427387904"),
        ("shape", "2147483648,2147483648"),
        ("shape", ",".join(["1"] * 65)),
        ("dtype", "float"),
        ("dtype", ""),
        ("spec", "x,,y"),
        ("spec", "((x,y),z)"),
        ("spec", "(x"),
        ("spec", "x)"),
        ("spec", "1"),
        ("spec", "x y"),
        ("devices", "0"),
        ("devices", "-3"),
        ("devices", "abc"),
        ("devices", "4611686018427387904"),
    ],
)
def test_bad_input_names_the_field(field: str, text: str) -> None:
    query = {"mesh": "x:4,y:2", "shape": "8,6", "spec": "x", field: text}
    with pytest.raises(CalculatorInputError) as error:
        CALCULATOR.run(query)
    assert error.value.field == field
