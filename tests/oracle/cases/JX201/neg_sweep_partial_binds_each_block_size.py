# oracle: stdout compiles in loop: 4, compiles when hoisted: 4
"""A kernel benchmark sweeps block sizes: each `jax.jit(partial(attention, block_q=...))` binds a new size,
which is a constant of the program, so every iteration needs its own compile wherever the jit is made."""

import logging
from functools import partial

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(attention"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)


def attention(q, k, *, block_q, block_k):
    scores = q.reshape(-1, block_q).sum(axis=1)
    return scores.sum() + k.reshape(-1, block_k).sum()


def block_config(rate):
    return dict(block_q=int(rate * 80), block_k=16)


def sweep(q, k):
    timings = []
    for mult in (1, 2, 4):
        step = jax.jit(partial(attention, block_q=mult * 8, block_k=16))
        timings.append(float(step(q, k)))
    for rate in (0.8,):
        config = block_config(rate)
        step = jax.jit(partial(attention, **config))
        timings.append(float(step(q, k)))
    return timings


q = jnp.ones(64)
sweep(q, q)
in_loop = len(compiles)
hoisted = jax.jit(attention, static_argnames=("block_q", "block_k"))
for block_q in (8, 16, 32, 64):
    hoisted(q, q, block_q=block_q, block_k=16)
print(f"compiles in loop: {in_loop}, compiles when hoisted: {len(compiles) - in_loop}")
