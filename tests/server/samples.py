"""Source files the server tests open, with the findings each one has."""

from __future__ import annotations

TRAIN = """\
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def loss_fn(params, x):
    loss = jnp.mean((x @ params) ** 2)
    print("loss:", loss)
    if loss > 10.0:
        loss = jnp.log(loss)
    return loss


@jax.jit
def to_numpy(x):
    return np.asarray(x)


weights = jnp.zeros((4, 4))
weights[0, 0] = 1.0
"""
"""JX106 on line 9 (safe fix), JX101 on line 10, JX103 on line 17 (unsafe fix), JX601 on line 21 (safe fix);
``weights`` on line 20 is inferred as ``f32[4,4]``."""

TRAIN_CODES = [(9, "JX106"), (10, "JX101"), (17, "JX103"), (21, "JX601")]
"""(1-based line, code) of every finding in :data:`TRAIN`."""

TRAIN_FIXED_SAFE = TRAIN.replace('    print("loss:", loss)\n', '    jax.debug.print("loss: {}", loss)\n').replace(
    "weights[0, 0] = 1.0\n", "weights = weights.at[0, 0].set(1.0)\n"
)
""":data:`TRAIN` after every safe fix."""

CLEAN = """\
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    return jnp.where(x > 0, x, 0.0)
"""
