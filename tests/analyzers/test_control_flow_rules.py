"""Loop carry and branch rules (JX3xx): messages, related locations and fixes."""

from __future__ import annotations

from xlalens.analyzers.api import check_source, fix_source

_IMPORTS = "import jax.numpy as jnp\nfrom jax import lax\n"
_DTYPE = """\
import jax.numpy as jnp
from jax import lax


def body(i, carry):
    step, stats = carry
    m = (stats["m"] * 2).astype(jnp.float16)
    return step, {"m": m}


lax.fori_loop(0, 3, body, (0, {"m": jnp.zeros(3)}))
"""


def test_dtype_message_names_leaf_types_and_body_line() -> None:
    [diagnostic] = [d for d in check_source(_DTYPE, "x.py") if d.code == "JX301"]
    assert diagnostic.message.startswith("Loop carry `carry[1]['m']` starts as float32[3]")
    assert "returns float16[3]" in diagnostic.message
    assert diagnostic.related[0].range.start.line == 7


def test_dtype_fix_is_unsafe_and_gives_the_init_the_body_dtype() -> None:
    source = _IMPORTS + "lax.fori_loop(0, 3, lambda i, c: c.astype(jnp.float16), jnp.zeros(3))\n"
    assert not fix_source(source, "x.py").fixed
    fixed = fix_source(source, "x.py", unsafe=True)
    assert "jnp.zeros(3, dtype=jnp.float16)" in fixed.source
    assert not [d for d in check_source(fixed.source, "x.py") if d.code == "JX301"]


def test_method_call_in_body_makes_the_carry_unknown() -> None:
    source = _IMPORTS + (
        "def body(i, c):\n"
        "    out = []\n"
        "    out.append(c[0])\n"
        "    return out\n"
        "\n"
        "lax.fori_loop(0, 3, body, [jnp.zeros(3)])\n"
    )
    assert not [d for d in check_source(source, "x.py") if d.code.startswith("JX3")]


def _fixture_diagnostics(code: str) -> list:
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "fixtures" / "rules" / f"{code}.py"
    return [d for d in check_source(path.read_text(), str(path)) if d.code == code]


def test_carry_findings_fill_the_calculator_and_it_agrees() -> None:
    from xlalens.explainers.calculators import get_calculator

    calculator = get_calculator("carry-check")
    reasons = {"JX301": "dtypes do not match", "JX302": "shapes do not match", "JX303": "structure"}
    for code in ("JX301", "JX302", "JX303", "JX304"):
        diagnostics = _fixture_diagnostics(code)
        filled = [d for d in diagnostics if d.calculator is not None]
        assert len(filled) * 2 >= len(diagnostics), f"{code}: {len(filled)} of {len(diagnostics)} carry inputs"
        for diagnostic in filled:
            assert diagnostic.calculator is not None
            name, inputs = diagnostic.calculator
            assert name == "carry-check"
            result = calculator.run(calculator.query(inputs))
            assert result.verdict == "TypeError", (diagnostic.message, inputs)
            if code in reasons:
                assert reasons[code] in result.message, (diagnostic.message, result.message)


def test_carry_calculator_inputs_name_the_body_parameter_and_bounds() -> None:
    [diagnostic] = [d for d in check_source(_DTYPE, "x.py") if d.code == "JX301"]
    assert diagnostic.calculator == (
        "carry-check",
        {
            "primitive": "fori_loop",
            "name": "carry",
            "init": "(~i32[], {'m': f32[3]})",
            "out": "(~i32[], {'m': f16[3]})",
            "bounds": "static",
        },
    )


def test_shape_and_structure_findings_suggest_a_change_without_editing() -> None:
    from xlalens.analyzers.core.diagnostics import Applicability

    shape = _IMPORTS + "lax.fori_loop(0, 3, lambda i, acc: jnp.concatenate([acc, jnp.ones(1)]), jnp.zeros(1))\n"
    structure = _IMPORTS + "lax.fori_loop(0, 3, lambda i, c: [c[0], c[1]], (jnp.zeros(2), jnp.ones(2)))\n"
    [jx302] = [d for d in check_source(shape, "x.py") if d.code == "JX302"]
    [jx303] = [d for d in check_source(structure, "x.py") if d.code == "JX303"]
    assert jx302.fix is not None and jx303.fix is not None
    assert jx302.fix.applicability is jx303.fix.applicability is Applicability.DISPLAY_ONLY
    assert jx302.fix.edits == jx303.fix.edits == ()
    assert jx302.fix.message.startswith("Allocate `acc` at its final shape")
    assert "returns float32[1] again" in jx302.fix.message
    assert jx303.fix.message == "Return `c` as a tuple of 2, the structure the initial carry has"
    assert fix_source(shape, "x.py", unsafe=True).source == shape
