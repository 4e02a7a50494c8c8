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

for i in range(10):
    step = jax.jit(lambda v: v * 2.0)
x = jnp.ones(8)
for _ in range(5):
    x = step(x)
print("compiles:", len(compiles))
