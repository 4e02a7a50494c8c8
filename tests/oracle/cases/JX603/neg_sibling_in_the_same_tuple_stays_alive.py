# oracle: stdout velocity still readable: 0.0
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnums=0)
def apply_update(params, update):
    return params - 0.1 * update


def train(steps):
    params = jnp.ones(4)
    velocity = jnp.zeros(4)
    checkpoint = (params, velocity)
    for _ in range(steps):
        params = apply_update(params, velocity + 1.0)
    print("velocity still readable:", float(velocity.sum()))
    return params, len(checkpoint)


train(2)
