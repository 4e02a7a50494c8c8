# oracle: stdout compiles in loop: 4, compiles when hoisted: 4
import logging
from functools import partial

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        message = record.getMessage()
        if message.startswith(("Compiling jit(candidate", "Compiling jit(blocked_sum")):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)


def blocked_sum(x, block):
    return x.reshape(-1, block).sum(axis=1)


x = jnp.arange(64.0)
best = None
for block in (2, 4, 8, 16):  # autotuning: every block size is its own program

    @jax.jit
    def candidate(v):
        return blocked_sum(v, block)

    out = candidate(x)
    best = block if best is None or out.size < best else best
in_loop = len(compiles)

hoisted = jax.jit(blocked_sum, static_argnums=1)
for block in (2, 4, 8, 16):
    hoisted(x, block)
print(f"compiles in loop: {in_loop}, compiles when hoisted: {len(compiles) - in_loop}")
