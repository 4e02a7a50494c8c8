# oracle: stdout compiles: 4
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(inner)"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)

x = jnp.ones(8)
n = 0
while n < 4:

    @jax.jit  # error: JX201
    def inner(v):
        return v + 1.0

    x = inner(x)
    n += 1
print("compiles:", len(compiles))
