# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np

KEEP = np.array([True, False, True])


@jax.jit
def select(x):
    picked = x[KEEP]
    also = x[np.array([False, True, True])]
    return picked, also


select(jnp.array([1.0, -2.0, 3.0]))
