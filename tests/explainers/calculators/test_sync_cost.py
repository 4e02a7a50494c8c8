"""The sync-cost calculator: the shared calculator contract, and the counts the torch_xla oracle measured."""

from __future__ import annotations

import pytest
from xlalens.explainers.calculators import CalculatorInputError, get_calculator

from . import test_contract

NAME = "sync-cost"


@pytest.mark.parametrize(
    "check",
    [
        test_contract.test_examples_run_and_serialise,
        test_contract.test_query_round_trips_through_parse,
        test_contract.test_describe_lists_fields,
        test_contract.test_inputs_are_frozen,
        test_contract.test_unknown_field_is_named,
    ],
    ids=lambda check: check.__name__,
)
def test_shared_contract(check) -> None:
    check(NAME)


def test_registered() -> None:
    calculator = get_calculator(NAME)
    assert calculator.explainer == "torch-xla-lazy-tensor#counting-the-cost"
    assert len(calculator.examples) >= 3


@pytest.mark.parametrize("field", [f.name for f in get_calculator(NAME).fields])
@pytest.mark.parametrize("text", [*test_contract.JUNK, "-5", "10001", "1e3"])
def test_junk_gives_a_result_or_names_the_field(field: str, text: str) -> None:
    calculator = get_calculator(NAME)
    try:
        calculator.run({**calculator.examples[0], field: text})
    except CalculatorInputError as error:
        assert error.field == field, str(error)


# (inputs, executions, transfers, compiles) measured by tests/oracle_torch_xla with torch_xla 2.9 on CPU:
# TX101/pos_item_before_optimizer_step (5 steps: 10 executions, 5 transfers, 2 compiles),
# TX101/neg_step_closure (5, 5, 1), TX102/neg_sync_each_step (5, 0, 1),
# TX203/pos_warmup_scale (2 graphs: 2 compiles).
@pytest.mark.parametrize(
    ("query", "executions", "transfers", "compiles"),
    [
        ({"steps": "5", "host-reads": "1"}, 10, 5, 2),
        ({"steps": "5", "closure-reads": "1"}, 5, 5, 1),
        ({"steps": "5"}, 5, 0, 1),
        ({"steps": "5", "graphs": "2"}, 5, 0, 2),
    ],
)
def test_matches_oracle_measurements(query: dict[str, str], executions: int, transfers: int, compiles: int) -> None:
    result = get_calculator(NAME).run(query)
    assert (result.executions, result.transfers, result.compiles) == (executions, transfers, compiles)


def test_unsynced_loop_is_an_error() -> None:
    result = get_calculator(NAME).run({"steps": "20", "synced": "false"})
    assert result.status == "error" and result.executions == 1 and "grows" in result.headline
