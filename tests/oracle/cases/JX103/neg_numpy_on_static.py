# oracle: runs
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames=("n",))
def positional(x, n):
    table = np.sin(np.arange(n) / 10.0)
    numel = np.prod(x.shape)
    eps = np.finfo(x.dtype).eps
    return x + jnp.asarray(table)[: x.shape[0]] * numel + eps


positional(jnp.arange(3.0), n=4)
