# oracle: raises TypeError: cond branch outputs must have the same pytree structure
from typing import NamedTuple

import jax.numpy as jnp
from jax import lax


class Pair(NamedTuple):
    a: jnp.ndarray
    b: jnp.ndarray


lax.cond(True, lambda x: Pair(x, x), lambda x: (x, x), jnp.ones(2))  # error: JX304
