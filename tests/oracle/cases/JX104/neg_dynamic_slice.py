# oracle: runs
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def window(x, start):
    return lax.dynamic_slice(x, (start,), (2,)), lax.dynamic_slice_in_dim(x, start, 2)


window(jnp.arange(5.0), 1)
