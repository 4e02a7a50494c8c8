"""What every calculator promises: registration, examples, JSON, text round trips, and errors that name a field."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError, Row, get_calculator, result_json
from xlalens.explainers.calculators.dtypes import DTYPE_CHOICES, lookup
from xlalens.explainers.calculators.units import format_bytes, format_count, format_flop_rate, format_seconds

NAMES = (
    "retrace",
    "shard-shape",
    "blockspec",
    "roofline",
    "carry-check",
    "pytree",
    "vmap-axes",
    "reshard",
    "remat",
    "pipeline",
    "graph-hash",
    "transform-stack",
)
EXPLAINERS = {
    "retrace": "jit-caching#cache-keys",
    "shard-shape": "sharding#divisibility",
    "blockspec": "pallas-blockspec#block-arithmetic",
    "roofline": "performance-model#the-roofline",
    "carry-check": "control-flow#loop-carry-dtype-changes",
    "pytree": "pytrees#flattening",
    "vmap-axes": "vmap#mapped-axes",
    "reshard": "spmd-partitioner#what-a-resharding-costs",
    "remat": "remat#checkpoint-policies",
    "pipeline": "pallas-pipeline#the-schedule",
    "graph-hash": "torch-xla-runtime#the-graph-hash-and-the-compile-cache",
    "transform-stack": "transforms#shapes-through-a-stack",
}

JUNK = (
    "",
    " ",
    "-1",
    "0",
    "abc",
    "1e400",
    "nan",
    "inf",
    "9" * 40,
    "4611686018427387904",
    ",".join(["7"] * 70),
    "None",
    "()",
    "[]",
    "{}",
    ",",
    ";",
    "\x00",
    "\U0001f642",
    "x" * 10_000,
    "1,,2",
    "((x,y)",
    "x:0",
    "x:-1",
    "'",
    '"',
    "\\",
    "static(",
    "1.5",
    "true",
    "f32[8,128]",
    "x:f32[3]; y=~f32[]",
)


def _random_junk(seed: int, count: int) -> list[str]:
    alphabet = "0123456789,;:=~()[]{}-. xyzNonefstaic'\"_"
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30))) for _ in range(count)]


@pytest.mark.parametrize("name", NAMES)
def test_registered_with_examples(name: str) -> None:
    calculator = get_calculator(name)
    assert calculator.name == name
    assert calculator.explainer == EXPLAINERS[name]
    assert len(calculator.examples) >= 3
    assert calculator.title and calculator.summary


@pytest.mark.parametrize("name", NAMES)
def test_examples_run_and_serialise(name: str) -> None:
    calculator = get_calculator(name)
    for example in calculator.examples:
        result = calculator.run(example)
        assert result.status in ("ok", "warning", "error")
        assert isinstance(result.headline, str) and result.headline
        assert all(isinstance(row, Row) for row in result.rows())
        payload = result_json(result)
        assert json.loads(json.dumps(payload)) == payload


@pytest.mark.parametrize("name", NAMES)
def test_query_round_trips_through_parse(name: str) -> None:
    calculator = get_calculator(name)
    for example in calculator.examples:
        inputs = calculator.parse(example)
        assert calculator.parse(calculator.query(inputs)) == inputs


@pytest.mark.parametrize("name", NAMES)
def test_describe_lists_fields(name: str) -> None:
    calculator = get_calculator(name)
    description = calculator.describe()
    assert [field["name"] for field in description["fields"]] == [field.name for field in calculator.fields]
    assert all(field["help"] for field in description["fields"])
    json.dumps(description)


@pytest.mark.parametrize("name", NAMES)
def test_inputs_are_frozen(name: str) -> None:
    calculator = get_calculator(name)
    inputs = calculator.parse(calculator.examples[0])
    first = dataclasses.fields(inputs)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(inputs, first, None)


@pytest.mark.parametrize("name", NAMES)
def test_unknown_field_is_named(name: str) -> None:
    calculator = get_calculator(name)
    with pytest.raises(CalculatorInputError) as error:
        calculator.run({**calculator.examples[0], "colour": "blue"})
    assert error.value.field == "colour"


def _fuzz_cases() -> list[Any]:
    cases = []
    for name in NAMES:
        for field in get_calculator(name).fields:
            for index, text in enumerate((*JUNK, *_random_junk(sum(map(ord, name + field.name)), 60))):
                cases.append(pytest.param(name, field.name, text, id=f"{name}-{field.name}-{index}"))
    return cases


@pytest.mark.parametrize(("name", "field", "text"), _fuzz_cases())
def test_junk_gives_a_result_or_names_the_field(name: str, field: str, text: str) -> None:
    calculator = get_calculator(name)
    try:
        result = calculator.run({**calculator.examples[0], field: text})
    except CalculatorInputError as error:
        assert error.field == field, str(error)
    else:
        assert result.status in ("ok", "warning", "error")
        json.dumps(result_json(result))


def test_dtype_names_cover_the_brief() -> None:
    for name in ("f32", "float32", "bf16", "bfloat16", "f16", "f64", "i8", "i16", "i32", "i64", "u8", "u32"):
        assert name in DTYPE_CHOICES
    for name in ("bool", "float8_e4m3fn", "float8_e5m2", "int4"):
        assert name in DTYPE_CHOICES
    assert lookup("int4").itemsize == 0.5
    assert lookup("float8_e5m2").short == "f8_e5m2"


def test_units() -> None:
    assert format_bytes(16 * 2**20) == "16.0 MiB"
    assert format_bytes(1023) == "1023 B"
    assert format_bytes(1024) == "1.0 KiB"
    assert format_count(1234567) == "1,234,567"
    assert format_flop_rate(989e12) == "989 TFLOP/s"
    assert format_seconds(0.0009999) == "1.00 ms"
    assert format_seconds(2.5e-9) == "2.50 ns"


def test_pipeline_walks_the_grid_last_axis_fastest_and_skips_repeated_blocks() -> None:
    result = get_calculator("pipeline").run(
        {"grid": "2,3", "inputs": "x: lambda i, j: (i, 0); w: lambda i, j: (0, j)", "outputs": "o: lambda i, j: (i, 0)"}
    )
    assert [step.ids for step in result.schedule] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert dict(result.copies) == {"x": 2, "w": 6}
    assert dict(result.writes) == {"o": 2}
    assert [step.writes for step in result.schedule] == [(), (), ("o(0, 0)",), (), (), ("o(1, 0)",)]
