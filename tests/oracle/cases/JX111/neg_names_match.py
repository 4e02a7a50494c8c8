# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("layers",))
def forward(x, layers):
    return x * layers


print(forward(jnp.ones(4), layers=2))
