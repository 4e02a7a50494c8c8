# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("n",))
def pad_to(x, n):
    padding = jnp.zeros(n - x.shape[0])
    block = jnp.ones((n, 3))
    for _ in range(n):
        x = x + 1.0
    return jnp.concatenate([x, padding]), block, x[:n]


pad_to(jnp.arange(3.0), n=5)
