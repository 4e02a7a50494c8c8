# oracle: stdout computed in: float64
import os

os.environ["JAX_ENABLE_X64"] = "True"

import jax.numpy as jnp


def initial_state(size):
    return jnp.zeros(size, dtype=jnp.float64)


print("computed in:", initial_state(4).dtype)
