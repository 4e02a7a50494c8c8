# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.vmap, in_axes=(None, 0, 0))
def predict(params, x, mask):
    return jnp.where(mask, x @ params, 0.0)


print(predict(jnp.ones((3, 2)), jnp.ones((8, 3)), jnp.ones((8, 2), dtype=bool)).shape)
