# oracle: stdout params: [0.9 0.9 0.9 0.9]
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnums=0)
def update(params, grads):
    return params - 0.1 * grads


params = jnp.ones(4)
params = update(params, jnp.ones(4))
print("params:", params)
