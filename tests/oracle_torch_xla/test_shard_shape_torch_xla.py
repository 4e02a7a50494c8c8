"""The shard-shape calculator's torch_xla mode against real ``xs.mark_sharding`` on 8 CPU devices.

One subprocess in the torch_xla oracle venv marks every case's tensor and reports each device's
``local_shards`` entry: the slice of the global tensor it holds, the shape of its buffer (padding
included) and its replica id. The calculator must give the same buffer shape, the same number of
copies, and for each device the same count of real entries per dimension; for specs torch_xla
rejects, the same exception message.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from xlalens.explainers.calculators.shard_shape import CALCULATOR, ShardShapeResult, parse_spec

from tests.oracle_torch_xla.test_oracle_torch_xla import require_oracle, run_json_probe

DEVICES = 8

# (mesh, shape, spec) on 8 devices; every mesh uses all of them, as torch_xla requires.
CASES: tuple[dict[str, str], ...] = (
    {"mesh": "x:4,y:2", "shape": "8,6", "spec": "x,None"},
    {"mesh": "x:4,y:2", "shape": "6,4", "spec": "x,None"},
    {"mesh": "x:4,y:2", "shape": "5,3", "spec": "(x,y),None"},
    {"mesh": "x:4,y:2", "shape": "8,3", "spec": "None,y"},
    {"mesh": "x:4,y:2", "shape": "7,5", "spec": "x,y"},
    {"mesh": "x:4,y:2", "shape": "2,4", "spec": "x,None"},
    {"mesh": "x:4,y:2", "shape": "16,3", "spec": "(y,x),None"},
    {"mesh": "x:4,y:2", "shape": "8,6", "spec": "None,None"},
    {"mesh": "x:2,y:2,z:2", "shape": "8,3,2", "spec": "(x,z),y,None"},
    {"mesh": "x:8", "shape": "9", "spec": "x"},
    {"mesh": "x:4,y:2", "shape": "8,6", "spec": "x"},
    {"mesh": "x:4,y:2", "shape": "8,6", "spec": "x,x"},
    {"mesh": "x:4,y:2", "shape": "8,6", "spec": "z,None"},
)

_ORACLE = r"""
import json, sys
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()

def entry(item):
    return tuple(item) if isinstance(item, list) else item

def lengths(indices, shape):
    # A fully replicated tensor's shards give Ellipsis for the whole tensor.
    if indices is Ellipsis:
        return list(shape)
    return [n if s is Ellipsis else len(range(*s.indices(n))) for s, n in zip(indices, shape)]

def ranges(indices, shape):
    if indices is Ellipsis:
        return [[0, n] for n in shape]
    return [[0, n] if s is Ellipsis else list(s.indices(n)[:2]) for s, n in zip(indices, shape)]

out = []
for case in json.load(sys.stdin):
    answer = {}
    out.append(answer)
    mesh = xs.Mesh(np.arange(xr.global_runtime_device_count()), tuple(case["sizes"]), tuple(case["names"]))
    tensor = torch.zeros(tuple(case["shape"])).to(torch_xla.device())
    try:
        sharded = xs.mark_sharding(tensor, mesh, tuple(entry(item) for item in case["spec"]))
    except Exception as error:
        answer["raised"] = type(error).__name__
        answer["message"] = str(error)
        continue
    answer["shards"] = [
        {
            "device": int(shard.shard_device.split(":")[1]),
            "lengths": lengths(shard.indices, case["shape"]),
            "ranges": ranges(shard.indices, case["shape"]),
            "buffer": list(shard.data.shape),
            "replica": shard.replica_id,
        }
        for shard in sharded.local_shards
    ]
print("XLALENS-SHARD-SHAPE " + json.dumps(out))
"""


def _result(case: dict[str, str]) -> ShardShapeResult:
    result = CALCULATOR.run({**case, "dtype": "f32", "framework": "torch_xla"})
    assert isinstance(result, ShardShapeResult)
    return result


@pytest.fixture(scope="module")
def torch_xla_answers() -> list[dict[str, Any]]:
    python = require_oracle()
    payload = []
    for case in CASES:
        result = _result(case)
        payload.append(
            {
                "sizes": list(result.mesh_shape),
                "names": list(result.mesh_names),
                "shape": list(result.shape),
                "spec": [list(e) if isinstance(e, tuple) else e for e in parse_spec(case["spec"])],
            }
        )
    return run_json_probe(python, _ORACLE, payload, "XLALENS-SHARD-SHAPE ", CPU_NUM_DEVICES=str(DEVICES))


def _position(result: ShardShapeResult, device: int, mesh_axes: tuple[str, ...]) -> int:
    """The row-major index of a device's coordinates over ``mesh_axes`` (device ids are laid out row-major)."""
    coords = dict(zip(result.mesh_names, _unravel(device, result.mesh_shape), strict=True))
    sizes = dict(zip(result.mesh_names, result.mesh_shape, strict=True))
    position = 0
    for axis in mesh_axes:
        position = position * sizes[axis] + coords[axis]
    return position


def _unravel(index: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    coords = []
    for size in reversed(shape):
        coords.append(index % size)
        index //= size
    return tuple(reversed(coords))


def test_cases_cover_uneven_and_rejected_specs() -> None:
    results = [_result(case) for case in CASES]
    assert sum(bool(r.padded_dims) for r in results) >= 5
    assert sum(bool(r.errors) for r in results) == 3
    assert all(math.prod(r.mesh_shape) == DEVICES for r in results)


@pytest.mark.oracle
@pytest.mark.parametrize("number", range(len(CASES)), ids=[f"{c['mesh']}|{c['shape']}|{c['spec']}" for c in CASES])
def test_calculator_matches_torch_xla(number: int, torch_xla_answers: list[dict[str, Any]]) -> None:
    result = _result(CASES[number])
    answer = torch_xla_answers[number]
    if result.errors:
        assert "raised" in answer, f"torch_xla accepted what the calculator rejects: {result.errors[0]}"
        assert answer["message"].startswith(result.errors[0]), (answer["message"], result.errors[0])
        return
    assert "raised" not in answer, f"torch_xla raised {answer.get('raised')}: {answer.get('message')}"
    shards = answer["shards"]
    assert len(shards) == DEVICES
    assert result.shard_shape is not None
    assert {tuple(shard["buffer"]) for shard in shards} == {result.shard_shape}
    assert max(shard["replica"] for shard in shards) + 1 == result.replication
    for shard in shards:
        expected = [dim.real_entries(_position(result, shard["device"], dim.mesh_axes)) for dim in result.dims]
        assert shard["lengths"] == expected, f"device {shard['device']}"
    slices = result.device_slices()
    assert slices is not None
    for shard in shards:
        assert [list(part) for part in slices[shard["device"]][1]] == shard["ranges"], f"device {shard['device']}"
