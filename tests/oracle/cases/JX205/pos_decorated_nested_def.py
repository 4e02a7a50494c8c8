# oracle: stdout compiles: 5
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(forward)"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)



def predict(params, x):
    @jax.jit  # error: JX205
    def forward(p, x):
        return x @ p

    return forward(params, x)


params = jnp.ones((4, 2))
for batch in [jnp.ones((8, 4))] * 5:
    predict(params, batch)
print("compiles:", len(compiles))
