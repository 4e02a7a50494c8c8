# oracle: raises TypeError: Error interpreting argument to
from functools import partial

import jax
import jax.numpy as jnp


class Pooler:
    @partial(jax.jit, static_argnames=("mode",))  # error: JX108
    def pool(self, x, mode):
        return x.max() if mode == "max" else x.mean()


Pooler().pool(jnp.arange(3.0), mode="max")
