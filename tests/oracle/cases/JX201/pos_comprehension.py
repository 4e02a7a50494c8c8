# oracle: stdout compiles: 6
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

x = jnp.ones(8)
ys = [jax.jit(lambda v: v + 1.0)(x) for _ in range(6)]  # error: JX201
print("compiles:", len(compiles))
