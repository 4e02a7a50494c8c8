# oracle: raises ValueError: Non-hashable static arguments are not supported
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="config")
def apply(x, config):
    return x * config["scale"]


apply(jnp.ones(4), config={"scale": 2.0})  # error: JX204
