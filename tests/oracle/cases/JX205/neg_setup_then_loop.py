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



def run(params, batches):
    step = jax.jit(lambda p, x: x @ p)  # built once per run, reused in its loop
    return [step(params, x) for x in batches]


run(jnp.ones((4, 2)), [jnp.ones((8, 4))] * 5)
print("compiles:", len(compiles))
