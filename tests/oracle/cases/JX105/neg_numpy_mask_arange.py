# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def drop_first(x):
    keep = np.arange(3) > 0
    (idx,) = np.nonzero(keep)
    return x[keep], x[idx]


drop_first(jnp.arange(3.0))
