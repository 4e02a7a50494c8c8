# oracle: raises ValueError: Non-hashable static arguments are not supported
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def scale(x, factor):
    return x * factor


scale(jnp.ones(4), jnp.array(2.0))  # error: JX204
