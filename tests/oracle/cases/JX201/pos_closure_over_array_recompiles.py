# oracle: stdout compiles in loop: 6, compiles when hoisted: 1
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(apply_scale"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)

x = jnp.ones(8)
for step in range(6):
    scale = jnp.full(8, 0.5 + step)

    def apply_scale(v):
        return v * scale

    x = jax.jit(apply_scale)(x)  # error: JX201
in_loop = len(compiles)


@jax.jit
def apply_scale_once(v, scale):
    return v * scale


for step in range(6):
    x = apply_scale_once(x, jnp.full(8, 0.5 + step))
print(f"compiles in loop: {in_loop}, compiles when hoisted: {len(compiles) - in_loop}")
