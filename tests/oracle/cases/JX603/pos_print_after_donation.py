# oracle: raises RuntimeError: Array has been deleted with shape=float32[4].
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnums=0)
def update(params, grads):
    return params - 0.1 * grads


params = jnp.ones(4)
new_params = update(params, jnp.ones(4))
print(params)  # error: JX603
