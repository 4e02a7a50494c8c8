# oracle: raises ValueError: Jitted function has invalid argnames {'num_layers'} in static_argnames
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("num_layers",))  # error: JX111
def forward(x, layers):
    return x * layers


print(forward(jnp.ones(4), layers=2))
