# oracle: raises TypeError: Error interpreting argument to
from functools import partial

import jax
import jax.numpy as jnp


class Repeater:
    # static_argnums counts `self`, so index 1 is `times`, and `self` stays traced.
    @partial(jax.jit, static_argnums=1)  # error: JX108
    def repeat(self, times, x):
        return jnp.tile(x, times)


Repeater().repeat(2, jnp.arange(3.0))
