# oracle: stdout compiles: 1
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(outer)"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)



@jax.jit
def outer(params, x):
    return jax.jit(lambda p, v: v @ p)(params, x)  # traced with outer, not compiled on its own


params = jnp.ones((4, 2))
for batch in [jnp.ones((8, 4))] * 5:
    outer(params, batch)
print("compiles:", len(compiles))
