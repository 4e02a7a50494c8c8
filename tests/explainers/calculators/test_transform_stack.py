"""The transform-stack calculator against real JAX: result shapes and error texts for a grid of stacks.

The oracle builds ``f(w, x)`` that returns an output of the case's shape from every element of
``w`` and ``x`` (so every derivative is defined), applies the stack as written, and calls it with
the arguments the calculator says the whole stack takes.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError, get_calculator
from xlalens.explainers.calculators.transform_stack import TransformStackResult, draw_stack

NAME = "transform-stack"

STACKS = (
    "vmap, grad",
    "grad, vmap",
    "jit, vmap, grad",
    "jit, grad, vmap",
    "grad, mean, vmap",
    "grad, sum, vmap",
    "jacrev, vmap",
    "jacfwd, vmap",
    "vmap, jacfwd",
    "vmap, jacrev",
    "vmap, vmap, grad",
    "grad, jacrev",
    "jacfwd, grad",
    "vmap, grad, mean, vmap",
    "vmap",
    "f",
)
SHAPES = (
    {"w": "3", "x": "3", "out": ""},
    {"w": "3,4", "x": "2", "out": "2"},
    {"w": "", "x": "5", "out": ""},
)
EXTRA = (
    {"stack": "vmap, grad", "in-axes": "(0, 0)"},
    {"stack": "grad, mean, vmap", "in-axes": "(0, 0)"},
    {"stack": "vmap, grad", "in-axes": "(None, 1)", "x": "3,4"},
    {"stack": "vmap, grad", "in-axes": "(None, -1)", "x": "3"},
    {"stack": "vmap, grad", "in-axes": "0"},
    {"stack": "vmap, grad", "in-axes": "(None, 0, 0)"},
    {"stack": "vmap", "in-axes": "None"},
    {"stack": "vmap", "in-axes": "(None, None)"},
    {"stack": "jit, vmap, grad", "batch": "1"},
)
ORACLE_CASES: tuple[dict[str, str], ...] = (
    *({"stack": stack, **shapes} for stack, shapes in itertools.product(STACKS, SHAPES)),
    *EXTRA,
)

_ORACLE = r"""
import json, re, sys
import jax
import jax.numpy as jnp

def shape_of(text):
    return tuple(int(size) for size in re.search(r"\[(.*)\]", text).group(1).split(",") if size)

def wrap(name, g, in_axes):
    if name == "vmap":
        return jax.vmap(g, in_axes=in_axes)
    if name in ("mean", "sum"):
        return lambda *args: getattr(g(*args), name)()
    return getattr(jax, name)(g)

answers = []
for case in json.load(sys.stdin):
    out = tuple(case["out"])
    def f(w, x, out=out):
        return (jnp.sum(jnp.sin(w)) * jnp.sum(jnp.cos(x)) + jnp.sum(w * w)) * jnp.ones(out)
    g = f
    for name in reversed(case["stack"]):
        g = wrap(name, g, case["in_axes"])
    args = [jnp.ones(shape_of(arg)) for arg in case["call"]]
    try:
        answers.append({"shape": list(g(*args).shape)})
    except (TypeError, ValueError) as error:
        answers.append({"raised": type(error).__name__, "message": str(error)})
print(json.dumps(answers))
"""


def _result(case: dict[str, str]) -> TransformStackResult:
    result = get_calculator(NAME).run(case)
    assert isinstance(result, TransformStackResult)
    return result


def _in_axes(case: dict[str, str]) -> Any:
    value = get_calculator(NAME).parse(case).in_axes
    return list(value) if isinstance(value, tuple) else value


@pytest.fixture(scope="module")
def jax_answers(run_jax: Any) -> list[dict[str, Any]]:
    payload = []
    for case in ORACLE_CASES:
        inputs = get_calculator(NAME).parse(case)
        result = _result(case)
        payload.append(
            {"stack": list(inputs.stack), "out": list(inputs.out), "in_axes": _in_axes(case), "call": list(result.call)}
        )
    return run_jax(_ORACLE, payload)


def test_the_grid_covers_results_and_both_errors() -> None:
    results = [_result(case) for case in ORACLE_CASES]
    assert len(results) >= 50
    assert {result.error_type for result in results} == {"", "TypeError", "ValueError"}
    assert sum(result.shape is not None for result in results) >= 30


@pytest.mark.oracle
@pytest.mark.parametrize("number", range(len(ORACLE_CASES)), ids=["|".join(c.values()) for c in ORACLE_CASES])
def test_shape_or_error_matches_jax(number: int, jax_answers: list[dict[str, Any]]) -> None:
    result = _result(ORACLE_CASES[number])
    answer = jax_answers[number]
    if result.error:
        assert answer.get("raised") == result.error_type, answer
        assert answer["message"] == result.error
    else:
        assert "raised" not in answer, answer
        assert tuple(answer["shape"]) == result.shape


def test_registered_on_the_transforms_page() -> None:
    calculator = get_calculator(NAME)
    assert calculator.explainer == "transforms#shapes-through-a-stack"
    assert len(calculator.examples) >= 3


def test_levels_run_inside_out_and_name_the_axes() -> None:
    result = _result({"stack": "vmap, jacfwd", "out": "2", "w": "3,4"})
    assert [level.name for level in result.levels] == ["f", "jacfwd", "vmap"]
    assert result.shape == (8, 2, 3, 4)
    assert result.axes == ("batch", "out", "w", "w")
    assert result.reading == "8 per-example Jacobians, each f32[2,3,4]"
    assert result.levels[2].note == "in_axes (None, 0): w whole; x mapped over axis 0"


def test_grad_of_a_batched_loss_needs_a_reduction() -> None:
    failing = _result({"stack": "grad, vmap"})
    assert failing.status == "error" and failing.levels[-1].error.startswith("Gradient only defined")
    reduced = _result({"stack": "grad, mean, vmap"})
    assert reduced.shape == (3,) and reduced.reading == "one gradient of the mean over 8 examples, a reduction"
    per_example = _result({"stack": "jacrev, vmap"})
    assert per_example.shape == (8, 3) and per_example.reading == "8 per-example gradients, each f32[3]"


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"stack": "vmap, pmap"}, "stack"),
        ({"stack": "vmap", "w": "3,x"}, "w"),
        ({"stack": "vmap", "batch": "0"}, "batch"),
        ({"stack": "vmap", "in-axes": "(None, 2)"}, "in-axes"),
        ({"stack": ",".join(["jit"] * 13)}, "stack"),
    ],
)
def test_bad_input_names_its_field(raw: dict[str, str], field: str) -> None:
    with pytest.raises(CalculatorInputError) as caught:
        get_calculator(NAME).run(raw)
    assert caught.value.field == field


def test_picture_nests_one_box_per_level_and_marks_the_error() -> None:
    picture = draw_stack(_result({"stack": "jit, grad, vmap"}))
    assert picture.svg.count("<rect") == 4
    assert 'fill="#f4b4ae"' in picture.svg
    assert picture.text.startswith("f returns f32[]; vmap(f) returns f32[8]; grad(vmap(f)) raises TypeError")
    assert picture.text.endswith("Output had shape: (8,).")
