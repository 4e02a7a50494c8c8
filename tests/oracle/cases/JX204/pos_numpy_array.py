# oracle: raises ValueError: Non-hashable static arguments are not supported
import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.partial(jax.jit, static_argnames="shape")
def reshape(x, shape):
    return x.reshape(shape)


reshape(jnp.ones(4), shape=np.array([2, 2]))  # error: JX204
