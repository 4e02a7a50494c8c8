# oracle: stdout compiles: 1
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit("):
            compiles.append(record)


@jax.jit
def outer(v):
    for _ in range(3):
        v = jax.jit(lambda u: u * 2.0)(v)  # inlined into outer's trace: no compile of its own
    return v


x = jnp.ones(8)
outer(x)
logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)
outer.clear_cache()
for _ in range(5):
    outer(x)
print("compiles:", len(compiles))
