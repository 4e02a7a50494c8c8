# oracle: stdout compiles: 5
import logging

import jax
import jax.numpy as jnp

compiles = []


class CountCompiles(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("Compiling jit(loss)"):
            compiles.append(record)


logging.getLogger("jax").addHandler(CountCompiles())
jax.config.update("jax_log_compiles", True)


def loss(w, x):
    return jnp.sum((x @ w) ** 2)


w = jnp.ones((4, 2))
x = jnp.ones((3, 4))
for i in range(5):
    grads = jax.jit(jax.grad(loss))(w, x)  # error: JX201
    w = w - 0.1 * grads
print("compiles:", len(compiles))
