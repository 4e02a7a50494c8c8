"""The remat calculator against ``jax.ad_checkpoint.saved_residuals``: residual bytes per layer and policy."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from xlalens.explainers.calculators import get_calculator
from xlalens.explainers.calculators.remat import POLICIES

# (layer, layers, batch, width, hidden, dtype)
STACKS = (
    ("tanh-dense", 1, 4, 8, 16, "float32"),
    ("tanh-dense", 3, 4, 8, 16, "float32"),
    ("tanh-dense", 5, 2, 6, 16, "bfloat16"),
    ("relu-mlp", 1, 4, 8, 16, "float32"),
    ("relu-mlp", 3, 4, 8, 16, "float32"),
    ("relu-mlp", 4, 2, 6, 10, "bfloat16"),
)
CASES = list(itertools.product(STACKS, POLICIES))

_ORACLE = r"""
import json, sys
import jax
import jax.numpy as jnp
from jax._src.ad_checkpoint import saved_residuals  # print_saved_residuals prints what this returns

def tanh_dense(w, x):
    return jnp.tanh(x @ w)

def relu_mlp(w, x):
    w1, w2 = w
    return x + jax.nn.relu(x @ w1) @ w2

answers = []
for (layer, layers, b, d, f, dtype), policy in json.load(sys.stdin):
    dtype = jnp.dtype(dtype)
    body = tanh_dense if layer == "tanh-dense" else relu_mlp
    if policy != "none":
        body = jax.checkpoint(body, policy=getattr(jax.checkpoint_policies, policy))
    if layer == "tanh-dense":
        params = [jnp.ones((d, d), dtype) for _ in range(layers)]
    else:
        params = [(jnp.ones((d, f), dtype), jnp.ones((f, d), dtype)) for _ in range(layers)]

    def loss(params, x):
        for w in params:
            x = body(w, x)
        return x.astype(jnp.float32).sum()

    kept = [aval for aval, where in saved_residuals(loss, params, jnp.ones((b, d), dtype)) if "argument" not in where]
    answers.append(sum(aval.size * aval.dtype.itemsize for aval in kept))
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def jax_bytes(run_jax: Any) -> list[int]:
    return run_jax(_ORACLE, [[list(stack), policy] for stack, policy in CASES])


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{s[0]}-{s[1]}-{s[5]}-{p}" for s, p in CASES])
def test_matches_saved_residuals(index: int, jax_bytes: list[int]) -> None:
    (layer, layers, batch, width, hidden, dtype), policy = CASES[index]
    result = get_calculator("remat").run(
        {
            "layer": layer,
            "layers": str(layers),
            "batch": str(batch),
            "width": str(width),
            "hidden": str(hidden),
            "dtype": dtype,
            "policy": policy,
        }
    )
    assert result.bytes == jax_bytes[index], result.kept
