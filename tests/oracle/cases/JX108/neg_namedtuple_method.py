# oracle: runs
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Params(NamedTuple):
    w: jax.Array
    b: jax.Array

    @jax.jit
    def apply(self, x):
        return x @ self.w + self.b


Params(jnp.ones((3, 2)), jnp.zeros(2)).apply(jnp.ones((1, 3)))
