"""The vmap-axes calculator against real ``jax.vmap``: batch size, per-call shapes, output shape and errors."""

from __future__ import annotations

from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError, get_calculator
from xlalens.explainers.calculators.vmap_axes import parse_arguments

# (args, in_axes, axis_size, out, out_axes); out is what one call returns (the oracle's f builds it).
ORACLE_CASES: tuple[tuple[str, str, str, str, str], ...] = (
    ("x: f32[8,3]; y: f32[3]", "(0, None)", "", "f32[]", "0"),
    ("x: f32[8,3,5]", "0", "", "f32[3,5]", "-1"),
    ("x: f32[8,3,5]", "0", "", "f32[3,5]", "1"),
    ("x: f32[8,3]", "0", "", "f32[3]", "2"),
    ("x: f32[8,3]", "0", "", "f32[3]", "-3"),
    ("x: f32[8,3]; y: f32[3]", "(0, None, 0)", "", "", "0"),
    ("x: f32[8,3]; y: f32[3]; z: f32[2]", "(0, None)", "", "", "0"),
    ("x: f32[8,3]; y: f32[3]", "(2, None)", "", "", "0"),
    ("x: f32[8,3]; y: f32[3]", "(-3, None)", "", "", "0"),
    ("x: f32[8,3]; y: f32[3]", "(-1, None)", "", "f32[8]", "0"),
    ("x: f32[8,3]; y: f32[4]", "0", "", "", "0"),
    ("x: f32[8,3]; y: f32[8]; z: f32[4]", "0", "", "", "0"),
    ("x: f32[4,3]; y: f32[8]; z: f32[8]", "0", "", "", "0"),
    ("x: f32[4,3]; y: f32[8]; z: f32[2]; w: f32[2]", "0", "", "", "0"),
    ("x: f32[8,3]; y: f32[3]", "(None, None)", "", "", "0"),
    ("x: f32[8,3]; y: f32[3]", "(0, None)", "4", "", "0"),
    ("x: f32[8,3]", "None", "4", "f32[8,3]", "0"),
    ("x: i32[]", "0", "", "", "0"),
    ("x: f32[3,8]; y: bf16[8]", "(1, 0)", "", "f32[3]", "1"),
    ("x: f32[0,3]", "(0,)", "", "f32[3]", "0"),
    ("i32[5]; f32[2,5]", "(0, 1)", "", "i32[]", "0"),
)

_ORACLE = r"""
import json, sys
import jax
import jax.numpy as jnp

def make(names, out):
    params = ", ".join(name for name in names)
    body = f"jnp.zeros({tuple(out['shape'])}, jnp.dtype('{out['dtype']}'))" if out else "0"
    namespace = {"jnp": jnp}
    exec(f"def f({params}):\n    return {body}\n", namespace)
    return namespace["f"]

answers = []
for names, shapes, in_axes, axis_size, out, out_axes in json.load(sys.stdin):
    args = [jnp.zeros(shape, jnp.dtype(dtype)) for dtype, shape in shapes]
    in_axes = tuple(in_axes) if isinstance(in_axes, list) else in_axes
    try:
        result = jax.vmap(make(names, out), in_axes=in_axes, out_axes=out_axes, axis_size=axis_size)(*args)
        answers.append({"error": "", "shape": list(result.shape) if out else None})
    except ValueError as error:
        answers.append({"error": str(error), "shape": None})
print(json.dumps(answers))
"""


def _payload(case: tuple[str, str, str, str, str]) -> list[Any]:
    args, in_axes, axis_size, out, out_axes = case
    calculator = get_calculator("vmap-axes")
    inputs = calculator.parse({"args": args, "in-axes": in_axes, "axis-size": axis_size, "out": out})
    names = [
        argument.name if not argument.name.startswith("args[") else f"a{i}" for i, argument in enumerate(inputs.args)
    ]
    shapes = [[argument.leaf.jax_str().split("[")[0], list(argument.leaf.shape)] for argument in inputs.args]
    out_spec = (
        None if inputs.out is None else {"dtype": inputs.out.jax_str().split("[")[0], "shape": list(inputs.out.shape)}
    )
    axes = list(inputs.in_axes) if isinstance(inputs.in_axes, tuple) else inputs.in_axes
    return [names, shapes, axes, inputs.axis_size, out_spec, int(out_axes)]


@pytest.fixture(scope="module")
def jax_answers(run_jax: Any) -> list[dict[str, Any]]:
    return run_jax(_ORACLE, [_payload(case) for case in ORACLE_CASES])


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(ORACLE_CASES)), ids=[f"{c[0]}|{c[1]}|{c[4]}" for c in ORACLE_CASES])
def test_matches_jax_vmap(index: int, jax_answers: list[dict[str, Any]]) -> None:
    args, in_axes, axis_size, out, out_axes = ORACLE_CASES[index]
    result = get_calculator("vmap-axes").run(
        {"args": args, "in-axes": in_axes, "axis-size": axis_size, "out": out, "out-axes": out_axes}
    )
    answer = jax_answers[index]
    if answer["error"]:
        expected = answer["error"].replace("argument a0", "args[0]").replace("argument a1", "args[1]")
        assert result.status == "error"
        assert result.error == expected
    else:
        assert result.status == "ok", result.error
        if answer["shape"] is not None:
            assert result.batched_out.split("[")[1].rstrip("]") == ",".join(map(str, answer["shape"]))


def test_unnamed_arguments_are_named_as_jax_names_them() -> None:
    assert [argument.name for argument in parse_arguments("f32[3]; y: i32[]")] == ["args[0]", "y"]


@pytest.mark.parametrize(
    ("field", "text"), [("args", "x: f32[8"), ("args", "x: (f32[3], f32[3])"), ("in-axes", "(0, one)")]
)
def test_bad_text_names_its_field(field: str, text: str) -> None:
    with pytest.raises(CalculatorInputError) as error:
        get_calculator("vmap-axes").run({field: text})
    assert error.value.field == field


def test_a_jx109_finding_opens_the_calculator_on_jaxs_error() -> None:
    from xlalens.analyzers.api import check_source

    source = (
        "import jax\nimport jax.numpy as jnp\n\n\n"
        "def loss(params, x, y):\n    return ((x @ params - y) ** 2).sum()\n\n\n"
        "jax.vmap(loss, in_axes=(None, 0))(jnp.ones(3), jnp.ones((8, 3)), jnp.zeros(8))\n"
    )
    (finding,) = [d for d in check_source(source, "loss.py") if d.code == "JX109"]
    assert finding.calculator is not None
    name, inputs = finding.calculator
    calculator = get_calculator(name)
    query = calculator.query(inputs)
    assert query == {"args": "params: f32[3]; x: f32[8,3]; y: f32[8]", "in-axes": "(None, 0)"}
    assert calculator.run(query).headline.endswith("but got len(in_axes)=2, len(args)=3")
