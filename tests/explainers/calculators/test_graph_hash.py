"""The graph-hash calculator: its text forms, its keys and its padding policies.

The step-by-step outcomes are checked against real torch_xla in
tests/oracle_torch_xla/test_graph_hash_torch_xla.py; these tests pin the rules it applies.
"""

from __future__ import annotations

import pytest
from xlalens.explainers.calculators import CalculatorInputError, get_calculator
from xlalens.explainers.calculators.graph_hash import GraphHashResult, draw_steps

NAME = "graph-hash"


def _run(**raw: str) -> GraphHashResult:
    result = get_calculator(NAME).run({key.replace("_", "-"): value for key, value in raw.items()})
    assert isinstance(result, GraphHashResult)
    return result


def _new(result: GraphHashResult) -> list[int]:
    return [int(outcome.new) for outcome in result.steps]


def test_registered_on_the_runtime_page() -> None:
    calculator = get_calculator(NAME)
    assert calculator.explainer == "torch-xla-runtime#the-graph-hash-and-the-compile-cache"
    assert len(calculator.examples) >= 3


def test_each_new_shape_compiles_once_and_cost_follows() -> None:
    result = _run(shapes="8x128, 8x128, 8x97, 8x128, 8x64, 8x97", compile_seconds="30")
    assert _new(result) == [1, 0, 1, 0, 1, 0]
    assert [outcome.graph for outcome in result.steps] == [1, 1, 2, 1, 3, 2]
    assert (result.compiles, result.hits, result.total_seconds) == (3, 3, 90.0)
    assert result.status == "warning"
    assert result.headline.startswith("6 steps: 3 compiles, 3 cache hits; 3 · 30 s = 90 s compiling")
    assert result.headline.endswith("padded to the largest size: 1 compile")


def test_padding_policies_are_compared_on_the_padded_axis_only() -> None:
    result = _run(shapes="8x128, 8x100, 6x100, 8x128", pad="buckets", buckets="128")
    assert [outcome.shape for outcome in result.steps] == ["8x128", "8x128", "6x128", "8x128"]
    assert {policy.pad: policy.compiles for policy in result.policies} == {"none": 3, "buckets": 2, "max": 2}
    batch = _run(shapes="8x128, 8x100, 6x100, 8x128", pad="max", pad_axis="0")
    assert [outcome.shape for outcome in batch.steps] == ["8x128", "8x100", "8x100", "8x128"]


def test_sizes_above_every_bucket_stay_as_they_are() -> None:
    result = _run(shapes="8x100, 8x300, 8x400", pad="buckets", buckets="128,256")
    assert [outcome.shape for outcome in result.steps] == ["8x128", "8x300", "8x400"]
    assert result.unbucketed == (300, 400)
    assert any(row.label == "larger than every bucket" and row.value == "300, 400" for row in result.rows())


def test_scalar_constants_and_shared_inputs() -> None:
    result = _run(shapes="8x128", values="0.5, 0.25, 1.0, 0.5, 0.0, -1.0, 1, -0.0, 0.1", other_numbers="0.1, 1.0")
    assert _new(result) == [1, 0, 1, 0, 1, 1, 0, 1, 1]
    assert result.steps[8].why == "new: 0.1, which shares the input of the other 0.1"
    assert "-0.0" in result.steps[7].why


def test_tensor_use_only_keys_the_dtype_and_size_use_keys_every_value() -> None:
    assert _new(_run(shapes="8x128", values="0.5, 1.0, 0, 2.0, 1", use="tensor")) == [1, 0, 1, 0, 0]
    assert _new(_run(shapes="8x128", values="128, 97, 128, 64", use="size")) == [1, 1, 0, 1]
    padded = _run(shapes="8x128", values="128, 97, 128, 64", use="size", pad="buckets", buckets="64,128")
    assert [outcome.value for outcome in padded.steps] == ["128", "128", "128", "64"]


def test_optimizer_state_makes_the_second_step_compile() -> None:
    result = _run(shapes="8x64, 8x128*2, 8x64", optimizer_state="true")
    assert _new(result) == [1, 1, 0, 1]
    assert result.warmup == 1 and result.status == "warning"
    assert _run(shapes="8x128*3", optimizer_state="true").status == "ok"


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"shapes": "8x128, 8x128", "values": "1, 2, 3"}, "values"),
        ({"shapes": "8x128", "values": "1.5", "use": "size"}, "values"),
        ({"shapes": "8x128, 128", "pad": "max"}, "pad"),
        ({"shapes": "8x128", "pad-axis": "2"}, "pad-axis"),
        ({"shapes": "8x128", "pad": "buckets", "buckets": ""}, "buckets"),
        ({"shapes": "8y128"}, "shapes"),
        ({"shapes": "8x128*20000"}, "shapes"),
        ({"shapes": "8x128", "values": "1e400"}, "values"),
    ],
)
def test_bad_input_names_its_field(raw: dict[str, str], field: str) -> None:
    with pytest.raises(CalculatorInputError) as caught:
        get_calculator(NAME).run(raw)
    assert caught.value.field == field


def test_one_shape_goes_with_any_count_of_numbers_and_round_trips() -> None:
    calculator = get_calculator(NAME)
    inputs = calculator.parse({"shapes": "8x128", "values": "1.0*2, 0.5*2"})
    assert len(inputs.shapes) == 4
    assert calculator.query(inputs)["shapes"] == "8x128*4"
    assert calculator.parse(calculator.query(inputs)) == inputs


def test_picture_draws_at_most_32_steps_and_says_so() -> None:
    result = _run(shapes="8x128*40")
    picture = draw_steps(result)
    assert picture.svg.count("<rect") == 32
    assert picture.text.endswith("the first 32 of 40 steps are drawn.")
    assert 'viewBox="0 0 364 ' in picture.svg
