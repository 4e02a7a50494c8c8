# oracle: stdout shape: (2, 2)
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="shape")
def reshape(x, shape):
    return x.reshape(shape)


print("shape:", reshape(jnp.ones(4), shape=(2, 2)).shape)
