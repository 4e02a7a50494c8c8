"""Matmul hints: the roofline calculator's inputs for matmuls whose operands are known, and nothing otherwise."""

from __future__ import annotations

from xlalens.analyzers.annotate import hints_for_source
from xlalens.explainers.calculators import get_calculator

CODE = """
import jax
import jax.numpy as jnp
import numpy as np

x = jnp.ones((8, 16, 512))
w = jnp.ones((512, 128))
h = jnp.ones((512, 128), jnp.bfloat16)
a = jnp.dot(x, w)
b = jnp.tanh(x @ w) + 1
c = x @ h
d = np.ones((4, 4)) @ np.ones((4, 4))
e = jnp.matmul(w.T, x[0].T)


@jax.jit
def step(params, batch):
    y = batch @ params
    return y
"""


def test_known_matmuls_get_their_roofline_inputs() -> None:
    hints = hints_for_source(CODE, "matmul")
    assert [(hint.span.start.line, dict(hint.inputs or {})) for hint in hints] == [
        (9, {"m": 128, "k": 512, "n": 128, "dtype": "f32"}),
        (10, {"m": 128, "k": 512, "n": 128, "dtype": "f32"}),
        (13, {"m": 128, "k": 512, "n": 16, "dtype": "f32"}),
    ]  # not: f32 @ bf16 (line 11), NumPy (line 12), traced operands of unknown shape (line 18)
    assert hints[0].label == "28 FLOP/B" and hints[0].calculator == "roofline"
    result = get_calculator("roofline").run(get_calculator("roofline").query(hints[0].inputs or {}))
    assert result.flops == 2 * 128 * 512 * 128
    assert f"{result.intensity:,.0f} FLOP/B" == hints[0].label
