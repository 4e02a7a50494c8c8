"""The graph-hash calculator against real torch_xla: which steps compile, read from ``CompileTime``.

One subprocess in the torch_xla oracle venv runs every case as a small training loop: a parameter
``w`` on the device, a batch made on the host (padded there, as a collate function would, to the
shape the calculator says the graph sees) and moved to the device, a loss that uses the step's
number as the case says, ``backward``, an optimizer step (SGD, or Adam for the cases whose optimizer
creates state) and ``torch_xla.sync()``. After each sync it reads the sample count of
``met.metric_data("CompileTime")``; a step compiled when the count grew. The calculator must say
the same of every step.

The process shares one compile cache across cases, so each case adds a tag of its own shape to the
loss: no case can hit a graph another case compiled.
"""

from __future__ import annotations

from typing import Any

import pytest
from xlalens.explainers.calculators.graph_hash import CALCULATOR, GraphHashResult

from tests.oracle_torch_xla.test_oracle_torch_xla import require_oracle, run_json_probe

CASES: tuple[dict[str, str], ...] = (
    {"shapes": "8x128, 8x128, 8x97, 8x128, 8x64, 8x97"},
    {"shapes": "8x128, 8x128, 8x97, 8x128, 8x64, 8x97", "pad": "buckets", "buckets": "64,128"},
    {"shapes": "8x128, 8x128, 8x97, 8x128, 8x64, 8x97", "pad": "max"},
    {"shapes": "8x128, 8x100, 6x100, 8x128", "pad": "buckets", "buckets": "128", "pad-axis": "1"},
    {"shapes": "8x128*8", "values": "0.5, 0.25, 1.0, 0.5, 0.0, -1.0, 1, -0.0"},
    {"shapes": "8x128*6", "values": "0.5, 0.25, 1.0, 0, 2.0, 1", "use": "tensor"},
    {"shapes": "8x128*5", "values": "128, 128, 97, 64, 128", "use": "size"},
    {"shapes": "8x128*5", "values": "128, 128, 97, 64, 128", "use": "size", "pad": "buckets", "buckets": "64,128"},
    {"shapes": "8x128*4", "values": "0.5, 0.3, 0.3, 2.5", "other-numbers": "0.3"},
    {"shapes": "8x128*3, 5x128, 8x128", "optimizer-state": "true"},
    {"shapes": "8x64, 8x128*2, 8x64", "optimizer-state": "true"},
)

_ORACLE = r"""
import ast, json, sys
import torch
import torch_xla
import torch_xla.debug.metrics as met

device = torch_xla.device()

def compiles():
    data = met.metric_data("CompileTime")
    return data[0] if data else 0

out = []
for tag, case in enumerate(json.load(sys.stdin)):
    torch.manual_seed(0)
    w = torch.nn.Parameter(torch.ones(1).to(device))
    optimizer = (torch.optim.Adam if case["optimizer_state"] else torch.optim.SGD)([w], lr=0.01)
    marker = torch.zeros(tag + 1).to(device)
    flags = []
    for step in case["steps"]:
        batch = torch.zeros(step["padded"])
        batch[tuple(slice(0, n) for n in step["given"])] = torch.randn(step["given"])
        x = batch.to(device)
        value = ast.literal_eval(step["value"]) if step["value"] else None
        if case["use"] == "size" and value is not None:
            x = x[:, :value]
        optimizer.zero_grad()
        loss = torch.tanh(x * w).mean() + marker.sum()
        for number in case["other_numbers"]:
            loss = loss * number
        if case["use"] == "scalar" and value is not None:
            loss = loss * value
        if case["use"] == "tensor":
            loss = loss * torch.tensor([value], device=device)
        loss.backward()
        optimizer.step()
        before = compiles()
        torch_xla.sync()
        flags.append(compiles() - before)
    out.append(flags)
print("XLALENS-GRAPH-HASH " + json.dumps(out))
"""


def _result(case: dict[str, str]) -> GraphHashResult:
    result = CALCULATOR.run(case)
    assert isinstance(result, GraphHashResult)
    return result


@pytest.fixture(scope="module")
def torch_xla_flags() -> list[list[int]]:
    python = require_oracle()
    payload: list[dict[str, Any]] = []
    for case in CASES:
        result = _result(case)
        inputs = CALCULATOR.parse(case)
        payload.append(
            {
                "use": inputs.use,
                "other_numbers": list(inputs.other_numbers),
                "optimizer_state": inputs.optimizer_state,
                "steps": [
                    {
                        "given": [int(size) for size in outcome.given.split("x")],
                        "padded": [int(size) for size in outcome.shape.split("x")],
                        "value": outcome.value,
                    }
                    for outcome in result.steps
                ],
            }
        )
    return run_json_probe(python, _ORACLE, payload, "XLALENS-GRAPH-HASH ")


def test_cases_cover_every_kind_of_key() -> None:
    results = [_result(case) for case in CASES]
    inputs = [CALCULATOR.parse(case) for case in CASES]
    assert {i.use for i in inputs if i.values} == {"scalar", "size", "tensor"}
    assert {i.pad for i in inputs} == {"none", "buckets", "max"}
    assert any(i.optimizer_state for i in inputs) and any(i.other_numbers for i in inputs)
    assert all(r.compiles >= 1 for r in results) and any(r.compiles >= 4 for r in results)


@pytest.mark.oracle
@pytest.mark.parametrize("number", range(len(CASES)), ids=["|".join(c.values()) for c in CASES])
def test_each_step_compiles_as_torch_xla_does(number: int, torch_xla_flags: list[list[int]]) -> None:
    result = _result(CASES[number])
    measured = torch_xla_flags[number]
    assert all(flag in (0, 1) for flag in measured), measured
    assert [int(outcome.new) for outcome in result.steps] == measured
    assert result.compiles == sum(measured)
