# oracle: raises ValueError: vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.vmap, in_axes=(None, 0))
def predict(params, x, mask):
    return jnp.where(mask, x @ params, 0.0)


params = jnp.ones((3, 2))
batch = jnp.ones((8, 3))
mask = jnp.ones((8, 2), dtype=bool)
print(predict(params, batch, mask))  # error: JX109
