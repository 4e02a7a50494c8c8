# oracle: stdout compiles: 6
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


def scaled(x, factor):
    return x * factor


def rescale(x, factor):
    step = jax.jit(functools.partial(scaled, factor=factor))  # error: JX205
    return step(x)


x = jnp.ones(4)
for i in range(6):
    x = rescale(x, 0.5)
print("compiles:", len(compiles))
