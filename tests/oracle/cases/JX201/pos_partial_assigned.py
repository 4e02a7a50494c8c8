# oracle: stdout compiles: 10
import functools
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
    g = jax.jit(functools.partial(scaled, a=2.0))  # error: JX201
    y = g(x)
print("compiles:", len(compiles))
