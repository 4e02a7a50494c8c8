"""The carry-check calculator against real ``lax.scan``/``fori_loop``/``while_loop``/``cond``, and its inputs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError, get_calculator
from xlalens.explainers.calculators.carry_check import (
    CALCULATOR,
    CarryCheckInputs,
    Container,
    Leaf,
    Tree,
    compute_carry_check,
    format_tree,
    parse_tree,
)

# (primitive, bounds, name, init, out). The oracle body ignores its carry and returns `out`, so a
# body traced again after weak-type promotion returns the same types, as the calculator assumes.
ORACLE_CASES: tuple[tuple[str, str, str, str, str], ...] = (
    ("scan", "static", "c", "f32[3]", "f32[3]"),
    ("scan", "static", "c", "f32[3]", "f16[3]"),
    ("scan", "static", "carry", "(f32[3], {'m': i32[], 'n': ~f32[]})", "(f32[3], {'m': f32[], 'n': f32[]})"),
    ("scan", "static", "c", "(f32[3], f32[])", "(f16[3], f32[1])"),
    ("scan", "static", "c", "f32[2]", "f16[3]"),
    ("scan", "static", "c", "~i32[]", "~f32[]"),
    ("scan", "static", "c", "~f32[]", "i32[]"),
    ("scan", "static", "c", "~f32[]", "bf16[3]"),
    ("scan", "static", "c", "~i32[]", "bool[]"),
    ("scan", "static", "c", "~f32[]", "f16[]"),
    ("scan", "static", "c", "i32[]", "~f32[]"),
    ("scan", "static", "c", "f16[]", "~f32[]"),
    ("scan", "static", "c", "~i32[4]", "u8[4]"),
    ("scan", "static", "c", "~i32[]", "f8_e4m3fn[]"),
    ("scan", "static", "c", "~f32[]", "c64[]"),
    ("scan", "static", "c", "~f32[2]", "c64[2]"),
    ("while_loop", "static", "c", "(~f32[], i32[])", "(c64[], i32[])"),
    ("scan", "static", "c", "[f32[3], None]", "(f32[3], None)"),
    ("scan", "static", "c", "(f32[3], i32[])", "(f32[3], i32[], i32[])"),
    ("scan", "static", "c", "f32[3]", "(f32[3], f32[3])"),
    ("scan", "static", "c", "{'a': f32[3], 'b': f32[3]}", "{'a': f32[3], 'c': f32[3]}"),
    ("scan", "static", "c", "{'a': f32[3], 'b': f32[3], 'd': ~f32[]}", "{'a': f32[3]}"),
    ("scan", "static", "c", "(None, f32[2])", "(f32[], f32[2])"),
    ("scan", "static", "c", "({'x': (f32[2], [i32[]])}, f32[])", "({'x': (f32[2], [f32[]])}, f32[])"),
    ("scan", "static", "c", "({'x': [f32[2]]}, (i32[],))", "({'x': (f32[2],)}, [i32[]])"),
    ("scan", "static", "", "(f32[3], i32[])", "(f16[3], i32[])"),
    ("scan", "static", "", "f32[3]", "f16[3]"),
    ("fori_loop", "static", "c", "f32[3]", "f16[3]"),
    ("fori_loop", "static", "c", "{'m': i32[]}", "{'m': f32[]}"),
    ("fori_loop", "static", "c", "{'m': ~i32[]}", "{'m': ~f32[]}"),
    ("fori_loop", "static", "c", "f32[3]", "(f32[3], f32[3])"),
    ("fori_loop", "traced", "c", "f32[3]", "f16[3]"),
    ("fori_loop", "traced", "c", "(i32[], f32[2])", "(i32[], f32[3])"),
    ("fori_loop", "traced", "c", "~f32[]", "bf16[]"),
    ("fori_loop", "traced", "c", "[f32[2]]", "(f32[2],)"),
    ("while_loop", "static", "state", "f32[1]", "f32[2]"),
    ("while_loop", "static", "c", "(~f32[], i32[])", "(f16[], i32[])"),
    ("while_loop", "static", "c", "(~f32[], i32[])", "(f16[2], f32[])"),
    ("while_loop", "static", "c", "f32[]", "(f32[], None)"),
    ("while_loop", "static", "c", "i32[]", "i32[]"),
    ("cond", "static", "c", "~f32[]", "f32[]"),
    ("cond", "static", "c", "~f32[]", "f16[]"),
    ("cond", "static", "c", "(~f32[], f32[2])", "(f16[], i32[3])"),
    ("cond", "static", "c", "(~f32[], {'a': i32[]})", "(f16[], [i32[]])"),
    ("cond", "static", "c", "f32[2]", "None"),
    ("cond", "static", "c", "{'a': f32[], 'b': f32[]}", "{'a': f32[], 'b': f32[]}"),
)

_ORACLE = r'''
import json, sys
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax._src.lax.lax import _convert_element_type

def build(spec):
    kind = spec["t"]
    if kind == "leaf":
        dtype = jnp.dtype(spec["dtype"])
        if spec["weak"]:
            if not spec["shape"]:
                return {"int32": 0, "float32": 0.0}[spec["dtype"]]
            return _convert_element_type(jnp.zeros(spec["shape"], dtype), dtype, weak_type=True)
        return jnp.zeros(spec["shape"], dtype)
    if kind == "none":
        return None
    if kind == "dict":
        return {key: build(item) for key, item in spec["items"].items()}
    items = [build(item) for item in spec["items"]]
    return tuple(items) if kind == "tuple" else items

class Unsigned:
    """A body whose signature JAX cannot read, so its message names no carry parameter."""
    __signature__ = "no signature"

    def __init__(self, out, arity, wrap):
        self.out, self.arity, self.wrap = out, arity, wrap

    def __call__(self, *args):
        value = build(self.out)
        return (value, None) if self.wrap else value

def body(name, params, out, wrap):
    if not name:
        return Unsigned(out, len(params), wrap)
    namespace = {"build": build, "out": out}
    result = "(build(out), None)" if wrap else "build(out)"
    exec(f"def body({', '.join(params).format(name=name)}):\n    return {result}\n", namespace)
    return namespace["body"]

def run(case):
    primitive, bounds, name, init, out = case
    if primitive == "scan":
        lax.scan(body(name, ["{name}", "x"], out, True), build(init), None, length=2)
    elif primitive == "fori_loop" and bounds == "static":
        lax.fori_loop(0, 2, body(name, ["i", "{name}"], out, False), build(init))
    elif primitive == "fori_loop":
        f = body(name, ["i", "{name}"], out, False)
        jax.jit(lambda n: lax.fori_loop(0, n, f, build(init)))(2)
    elif primitive == "while_loop":
        lax.while_loop(lambda c: False, body(name, ["{name}"], out, False), build(init))
    else:
        lax.cond(True, lambda: build(init), lambda: build(out))

answers = []
for case in json.loads(sys.stdin.read()):
    try:
        run(case)
    except TypeError as error:
        answers.append({"error": str(error)})
    else:
        answers.append({"error": None})
print(json.dumps(answers))
'''


def _spec(tree: Tree) -> dict[str, Any]:
    if isinstance(tree, Leaf):
        name = {"f8_e4m3fn": "float8_e4m3fn"}.get(tree.dtype, tree.jax_str().split("[")[0])
        return {"t": "leaf", "dtype": name, "shape": list(tree.shape), "weak": tree.weak}
    if tree.kind == "None":
        return {"t": "none"}
    if tree.kind == "dict":
        return {"t": "dict", "items": {k: _spec(c) for k, c in zip(tree.keys, tree.children, strict=True)}}
    return {"t": tree.kind, "items": [_spec(child) for child in tree.children]}


@pytest.fixture(scope="module")
def jax_answers(run_jax: Any) -> list[dict[str, Any]]:
    payload = [
        [primitive, bounds, name, _spec(parse_tree(init)), _spec(parse_tree(out))]
        for primitive, bounds, name, init, out in ORACLE_CASES
    ]
    return run_jax(_ORACLE, payload)


def _normalise(message: str) -> str:
    """JAX's message with the branch definitions replaced and key-set differences sorted."""
    message = re.sub(r"(true_fun|false_fun) is .*", r"\1 is <\1's definition>", message)
    return re.sub(r"\{('[^{}]*')\}", lambda m: "{" + " ".join(sorted(m[1].split(" "))) + "}", message)


@pytest.mark.parametrize("index", range(len(ORACLE_CASES)), ids=[" | ".join(c) for c in ORACLE_CASES])
def test_matches_jax(index: int, jax_answers: list[dict[str, Any]]) -> None:
    primitive, bounds, name, init, out = ORACLE_CASES[index]
    result = compute_carry_check(CarryCheckInputs(primitive, bounds, name, parse_tree(init), parse_tree(out)))  # type: ignore[arg-type]
    error = jax_answers[index]["error"]
    if error is None:
        assert result.verdict != "TypeError", result.message
        assert result.message == ""
    else:
        assert result.verdict == "TypeError"
        assert result.message == _normalise(error)


def test_cases_cover_every_verdict_and_primitive() -> None:
    verdicts = set()
    for primitive, bounds, name, init, out in ORACLE_CASES:
        inputs = CarryCheckInputs(primitive, bounds, name, parse_tree(init), parse_tree(out))  # type: ignore[arg-type]
        verdicts.add((primitive, compute_carry_check(inputs).verdict))
    for primitive in ("scan", "fori_loop", "while_loop"):
        assert {(primitive, "TypeError"), (primitive, "accepted after weak-type promotion")} <= verdicts
    assert {("cond", "TypeError"), ("cond", "accepted")} <= verdicts


def test_rows_show_both_types_and_the_promotion() -> None:
    result = CALCULATOR.run({"primitive": "scan", "init": "(~i32[], f32[3])", "out": "(f16[], f16[3])"})
    rows = {row.label: row for row in result.rows()}
    assert rows["carry[0]"].value == "int32[] vs float16[]"
    assert "promoted to result_type(~i32, f16[]) = float16" in rows["carry[0]"].formula
    assert rows["carry[1]"].formula == "the dtypes do not match"
    assert result.headline.startswith("TypeError: carry[1] is float32[3] in the initial carry but float16[3]")
    assert rows["JAX raises"].formula == result.message


def test_text_round_trip() -> None:
    text = "({'n': weak f32[], m: int32[]}, [bf16[2,3], None], (u8[],))"
    tree = parse_tree(text)
    assert format_tree(tree) == "({'m': i32[], 'n': ~f32[]}, [bf16[2,3], None], (u8[],))"
    assert parse_tree(format_tree(tree)) == tree
    assert parse_tree("(f32[3])") == Leaf("f32", (3,))
    assert parse_tree("()") == Container("tuple")


@pytest.mark.parametrize(
    ("field", "text"),
    [
        ("init", "f32[3"),
        ("init", "(f32[3], i64[2])"),
        ("init", "~bool[]"),
        ("init", "~f16[]"),
        ("out", "{'a': f32[], 'a': f32[]}"),
        ("out", "f32[3] f32[3]"),
        ("out", "i4[2]"),
        ("out", "(" * 40 + ")" * 40),
        ("name", "not a name"),
        ("primitive", "switch"),
    ],
)
def test_bad_inputs_name_the_field(field: str, text: str) -> None:
    with pytest.raises(CalculatorInputError) as error:
        get_calculator("carry-check").run({field: text})
    assert error.value.field == field


def test_query_from_code_values() -> None:
    query = CALCULATOR.query({"primitive": "fori_loop", "init": parse_tree("(f32[3], ~i32[])"), "out": "f16[3]"})
    assert query == {"primitive": "fori_loop", "init": "(f32[3], ~i32[])", "out": "f16[3]"}
