# oracle: stdout compiles: 1
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(<lambda>)"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)

update = jax.jit(lambda v: v * 0.5 + 1.0)
x = jnp.ones(8)
for step in range(10):
    x = update(x)
print("compiles:", len(compiles))
