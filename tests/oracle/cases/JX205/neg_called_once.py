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



def main(params, x):
    return jax.jit(lambda p, v: v @ p)(params, x)


main(jnp.ones((4, 2)), jnp.ones((8, 4)))
print("compiles:", len(compiles))
