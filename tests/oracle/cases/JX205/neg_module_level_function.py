# oracle: stdout compiles: 1
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(module_loss)"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)



@jax.jit
def module_loss(p, x):
    return jnp.mean((x @ p) ** 2)


def evaluate(params, batch):
    return jax.jit(module_loss)(params, batch)  # the same function object every call


params = jnp.ones((4, 2))
for batch in [jnp.ones((8, 4))] * 5:
    evaluate(params, batch)
print("compiles:", len(compiles))
