# oracle: raises ValueError: Non-hashable static arguments are not supported
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="shape")
def reshape(x, shape):
    return x.reshape(shape)


reshape(jnp.ones(4), shape=[2, 2])  # error: JX204
