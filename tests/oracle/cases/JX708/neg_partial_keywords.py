# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def repeat(x, times):
    return jnp.tile(x, times)


print(repeat(jnp.ones(2), 2))
