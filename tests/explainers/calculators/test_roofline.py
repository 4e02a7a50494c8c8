"""The roofline calculator against XLA's cost analysis on CPU, the chip table, and input validation.

What CPU reports (jax 0.10.2): ``Lowered.cost_analysis()`` (before XLA optimises) gives exactly
``2·m·k·n`` FLOPs and ``(m·k + k·n + m·n) · itemsize`` bytes for every dtype. ``Compiled.cost_analysis()``
agrees for f32 and int8, except that a vector-by-vector product (m = n = 1) counts ``2·k - 1`` FLOPs;
for bf16 and f16 the CPU backend converts to f32 first, so its compiled counts include the conversions.
"""

from __future__ import annotations

from typing import Any

import pytest
from xlalens.explainers.calculators import CalculatorInputError
from xlalens.explainers.calculators.dtypes import lookup
from xlalens.explainers.calculators.roofline import CALCULATOR, CHIPS, RooflineInputs, compute_roofline

ORACLE_CASES: tuple[tuple[int, int, int, str], ...] = (
    (128, 256, 512, "f32"),
    (1000, 1000, 1000, "f32"),
    (7, 13, 5, "f32"),
    (1, 4096, 1, "f32"),
    (64, 64, 64, "bf16"),
    (256, 256, 256, "i8"),
    (32, 32, 32, "f16"),
    (8, 8192, 8192, "bf16"),
)

_ORACLE = r"""
import json, sys
import jax
import jax.numpy as jnp

out = []
for m, k, n, dtype in json.load(sys.stdin):
    a = jax.ShapeDtypeStruct((m, k), jnp.dtype(dtype))
    b = jax.ShapeDtypeStruct((k, n), jnp.dtype(dtype))
    lowered = jax.jit(jnp.matmul).lower(a, b)
    before = lowered.cost_analysis()
    after = lowered.compile().cost_analysis()
    out.append({
        "lowered_flops": before["flops"], "lowered_bytes": before["bytes accessed"],
        "compiled_flops": after["flops"], "compiled_bytes": after["bytes accessed"],
    })
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def jax_answers(run_jax: Any) -> list[dict[str, float]]:
    return run_jax(_ORACLE, [[m, k, n, lookup(dtype).name] for m, k, n, dtype in ORACLE_CASES])


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(ORACLE_CASES)), ids=["x".join(map(str, c)) for c in ORACLE_CASES])
def test_matches_xla_cost_analysis(index: int, jax_answers: list[dict[str, float]]) -> None:
    m, k, n, dtype = ORACLE_CASES[index]
    result = compute_roofline(RooflineInputs("H100", m, k, n, dtype))
    answer = jax_answers[index]
    assert result.flops == answer["lowered_flops"]
    assert result.bytes == answer["lowered_bytes"]
    if dtype in ("f32", "i8"):
        expected_flops = m * n * (2 * k - 1) if m == n == 1 else result.flops
        assert answer["compiled_flops"] == expected_flops
        assert answer["compiled_bytes"] == result.bytes


@pytest.mark.parametrize(
    ("chip", "ridge"),
    [
        ("A100-40GB", 200.6),
        ("A100-80GB", 153.0),
        ("H100", 295.2),
        ("H200", 206.0),
        ("TPU-v4", 229.2),
        ("TPU-v5e", 240.5),
        ("TPU-v5p", 166.0),
        ("TPU-v6e", 559.8),
    ],
)
def test_ridge_points_match_the_fact_table(chip: str, ridge: float) -> None:
    assert round(compute_roofline(RooflineInputs(chip, 1, 1, 1)).ridge, 1) == ridge


def test_disagreements_are_shown() -> None:
    assert "2.46e12" in CHIPS["TPU-v5p"].bandwidth_source
    assert "1,600" in CHIPS["TPU-v6e"].bandwidth_source
    assert all(chip.peak_source and chip.bandwidth_source and chip.hbm_source for chip in CHIPS.values())


def test_formulas() -> None:
    result = compute_roofline(RooflineInputs("TPU-v5e", 8, 8192, 8192, "bf16"))
    assert result.flops == 2 * 8 * 8192 * 8192
    assert result.bytes == (8 * 8192 + 8192 * 8192 + 8 * 8192) * 2
    assert result.bound == "memory"
    assert result.t_lower == max(result.t_math, result.t_mem) == result.t_mem
    assert result.t_upper == result.t_math + result.t_mem
    assert result.peak_fraction == pytest.approx(result.intensity / result.ridge)
    assert result.status == "warning"
    assert "at most" in result.headline


def test_f32_peak_is_called_optimistic() -> None:
    result = CALCULATOR.run({"chip": "A100-80GB", "m": "256", "k": "12288", "n": "49152", "dtype": "f32"})
    assert "optimistic" in result.peak_note
    assert "bf16" in result.headline


def test_operands_larger_than_hbm_are_an_error() -> None:
    result = CALCULATOR.run({"chip": "TPU-v5e", "m": "100000", "k": "100000", "n": "100000", "dtype": "f32"})
    assert result.status == "error"
    assert "HBM holds" in result.headline


def test_round_trip() -> None:
    inputs = CALCULATOR.parse({"chip": "TPU-v6e", "m": "1024", "k": "2048", "n": "512", "dtype": "int8"})
    assert inputs.dtype == "i8"
    assert CALCULATOR.parse(CALCULATOR.query(inputs)) == inputs


@pytest.mark.parametrize(
    ("field", "text"),
    [
        ("chip", "H300"),
        ("chip", ""),
        ("m", "0"),
        ("m", "-1"),
        ("m", "1.5"),
        ("k", "4611686018427387904"),
        ("k", "1e9"),
        ("n", ""),
        ("n", "9" * 40),
        ("dtype", "bool"),
        ("dtype", "complex64"),
    ],
)
def test_bad_input_names_the_field(field: str, text: str) -> None:
    query = {"chip": "H100", "m": "8", "k": "8", "n": "8", field: text}
    with pytest.raises(CalculatorInputError) as error:
        CALCULATOR.run(query)
    assert error.value.field == field
