# oracle: stdout compiles: 3
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


fns = []
for a in (1.0, 2.0, 3.0):
    fns.append(jax.jit(functools.partial(scaled, a=a)))  # three functions, each compiled once
x = jnp.ones(8)
for _ in range(5):
    for f in fns:
        f(x)
print("compiles:", len(compiles))
