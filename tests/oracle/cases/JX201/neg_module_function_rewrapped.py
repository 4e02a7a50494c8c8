# oracle: stdout compiles: 1
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(scaled)"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)


def scaled(x, a):
    return x * a


x = jnp.ones(8)
for i in range(10):
    x = jax.jit(scaled)(x, 2.0)  # the same function object every iteration: cached
print("compiles:", len(compiles))
