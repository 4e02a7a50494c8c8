# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp


class Pooler:
    @partial(jax.jit, static_argnames=("self", "mode"))
    def pool(self, x, mode):
        return x.max() if mode == "max" else x.mean()


Pooler().pool(jnp.arange(3.0), mode="max")
