# oracle: raises ValueError: Non-hashable static arguments are not supported
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="spec")
def apply(x, spec):
    return x.reshape(spec[0])


apply(jnp.ones(4), spec=([2, 2], "rows"))  # error: JX204
