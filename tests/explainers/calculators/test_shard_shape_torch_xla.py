"""The shard-shape calculator's torch_xla mode (``xs.mark_sharding``): padded uneven cuts, its
assertions, and the JAX mode left as it was. Real torch_xla checks the same numbers in
tests/oracle_torch_xla/test_shard_shape_torch_xla.py."""

from __future__ import annotations

import pytest
from xlalens.explainers.calculators import CalculatorInputError
from xlalens.explainers.calculators.shard_shape import CALCULATOR, ShardShapeResult


def _run(**raw: str) -> ShardShapeResult:
    result = CALCULATOR.run({"mesh": "x:4,y:2", "dtype": "f32", "framework": "torch_xla", **raw})
    assert isinstance(result, ShardShapeResult)
    return result


def test_uneven_rows_are_padded_to_the_ceiling() -> None:
    result = _run(shape="6,4", spec="x,None")
    assert result.status == "ok"
    assert result.shard_shape == (2, 4)
    assert result.replication == 2
    assert result.shard_bytes == 32
    assert [dim.padding for dim in result.padded_dims] == [2]
    assert "array axis 0 is padded by 2" in result.headline
    row = next(row for row in result.rows() if row.label == "array axis 0")
    assert row.value == "ceil(6 / 4) = 2 per device"
    assert row.formula.endswith("the devices at x position 3 hold 0 real rows + 2 padding rows")


def test_padding_spread_over_several_positions() -> None:
    result = _run(shape="5,4", spec="x,None")
    row = next(row for row in result.rows() if row.label == "array axis 0")
    assert row.formula.endswith(
        "the devices at x position 2 hold 1 real row + 1 padding row; at position 3: 0 real rows + 2 padding rows"
    )


def test_even_split_matches_jax() -> None:
    torch_xla = _run(shape="8,6", spec="x,y")
    jax = CALCULATOR.run({"mesh": "x:4,y:2", "dtype": "f32", "shape": "8,6", "spec": "x,y"})
    assert isinstance(jax, ShardShapeResult)
    assert (torch_xla.shard_shape, torch_xla.replication, torch_xla.padded_dims) == (jax.shard_shape, 1, ())
    assert torch_xla.spec == "('x', 'y')"


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        ({"shape": "8,6", "spec": "x"}, "Partition spec length (1) should be equal to the input rank (2)."),
        ({"shape": "8", "spec": "x,None"}, "Partition spec length (2) should be equal to the input rank (1)."),
        (
            {"shape": "8,6", "spec": "x,x"},
            "Each device mesh dimension should appear at most once in partition_spec (0, 0).",
        ),
        (
            {"shape": "8,6", "spec": "(x,y),x"},
            "Each device mesh dimension should appear at most once in partition_spec ((0, 1), 0).",
        ),
        ({"shape": "8,6", "spec": "z,None"}, "Axis name z is not defined in the given mesh"),
        (
            {"shape": "8,6", "spec": "x,None", "devices": "16"},
            "Number of device IDs (8) must match the global number of devices (16)",
        ),
    ],
)
def test_what_torch_xla_asserts(raw: dict[str, str], error: str) -> None:
    result = _run(**raw)
    assert result.errors == (error,)
    assert result.shard_shape is None


def test_jax_stays_the_default() -> None:
    result = CALCULATOR.run({"mesh": "x:4,y:2", "dtype": "f32", "shape": "6,4", "spec": "x"})
    assert isinstance(result, ShardShapeResult)
    assert result.framework == "jax"
    assert result.errors == ("array axis 0 (size 6) is split 4 ways over mesh axis 'x'; 6 is not divisible by 4",)


@pytest.mark.parametrize("junk", ["pytorch", "JAX", "torch-xla", "1"])
def test_unknown_framework_names_the_field(junk: str) -> None:
    with pytest.raises(CalculatorInputError) as caught:
        CALCULATOR.run({"mesh": "x:4", "shape": "8", "spec": "x", "framework": junk})
    assert caught.value.field == "framework"
