"""Loop carry inlay hints: the carry type at each scan/fori_loop/while_loop call, with the calculator inputs."""

from __future__ import annotations

import ast

from xlalens.analyzers.annotate import hints_for_source, span_hints
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.models.extensions import module_interpreter
from xlalens.analyzers.models.hints import hint_providers
from xlalens.analyzers.semantics.names import ModuleIndex
from xlalens.explainers.calculators import get_calculator

_IMPORTS = "import jax.numpy as jnp\nfrom jax import lax\n"


def test_fori_loop_hint_shows_the_promoted_carry_after_the_init() -> None:
    source = _IMPORTS + "total = lax.fori_loop(0, 3, lambda i, c: (c[0] + 0.5, c[1] * 2), (0, jnp.zeros(3)))\n"
    [hint] = hints_for_source(source, "carry")
    assert hint.label == "carry (f32[], f32[3])"
    assert hint.target == "carry"
    line = source.splitlines()[2]
    assert (hint.position.line, hint.position.column) == (3, line.index("(0, jnp.zeros(3))") + len("(0, jnp.zeros(3))"))
    assert "promotes the weakly typed initial leaves" in hint.description
    assert hint.calculator == "carry-check"
    assert hint.inputs == {
        "primitive": "fori_loop",
        "name": "c",
        "init": "(~i32[], f32[3])",
        "out": "(~f32[], f32[3])",
        "bounds": "static",
    }
    calculator = get_calculator("carry-check")
    assert calculator.run(calculator.query(hint.inputs)).verdict == "accepted after weak-type promotion"


def test_scan_and_while_loop_hints_name_the_body_parameter() -> None:
    source = _IMPORTS + (
        "def step(state, x):\n"
        "    total, count = state\n"
        "    return (total + x, count + 1), total\n"
        "\n"
        "final, ys = lax.scan(step, (jnp.zeros(4), jnp.int32(0)), jnp.ones((5, 4)))\n"
        "n = lax.while_loop(lambda v: v < 10, lambda v: v * 2, jnp.int32(1))\n"
    )
    scan, loop = hints_for_source(source, "carry")
    assert scan.label == "carry (f32[4], i32[])"
    assert scan.inputs is not None and scan.inputs["name"] == "state" and scan.inputs["primitive"] == "scan"
    assert loop.label == "carry i32[]"
    assert "the body returns the same type" in loop.description


def test_a_mismatching_carry_still_gets_a_hint_whose_calculator_rejects_it() -> None:
    source = _IMPORTS + "lax.fori_loop(0, 3, lambda i, c: c.astype(jnp.float16), jnp.zeros(3))\n"
    [hint] = hints_for_source(source, "carry")
    assert hint.label == "carry f32[3]"
    assert "JAX rejects it" in hint.description
    calculator = get_calculator("carry-check")
    result = calculator.run(calculator.query(hint.inputs or {}))
    assert result.verdict == "TypeError"
    assert "float32[3]" in result.message and "float16[3]" in result.message


def test_no_hint_when_the_carry_is_not_known_for_certain() -> None:
    source = _IMPORTS + (
        "def body(i, c):\n"
        "    out = []\n"
        "    out.append(c)\n"
        "    return out\n"
        "\n"
        "lax.fori_loop(0, 3, body, jnp.zeros(3))\n"
        "lax.fori_loop(0, 3, lambda i, c: c, unknown_init)\n"
        "lax.fori_loop(0, 3, unknown_body, jnp.zeros(3))\n"
    )
    assert hints_for_source(source, "carry") == []


def test_named_tuple_carry_gets_no_hint_since_the_notation_has_no_named_tuples() -> None:
    source = _IMPORTS + (
        "from typing import NamedTuple\n"
        "\n"
        "class State(NamedTuple):\n"
        "    x: jnp.ndarray\n"
        "\n"
        "lax.fori_loop(0, 3, lambda i, s: s._replace(x=s.x * 2), State(jnp.ones(2)))\n"
    )
    assert hints_for_source(source, "carry") == []


def test_registered_and_run_with_the_other_providers() -> None:
    assert "carry" in hint_providers()
    source = _IMPORTS + "lax.fori_loop(0, 3, lambda i, c: c + 1, jnp.zeros(2))\n"
    index = ModuleIndex(ast.parse(source), {ast.Call})
    hints = span_hints(index, module_interpreter(index), SourceText(source))
    assert [hint.label for hint in hints if hint.target == "carry"] == ["carry f32[2]"]
