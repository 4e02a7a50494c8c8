# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    if x.ndim == 2 and x.shape[0] > 1:
        x = x / x.shape[0]
    if x.dtype == jnp.float32:
        x = x * 2.0
    while x.ndim < 2:
        x = x[None]
    return x if x.size > 2 else -x


normalize(jnp.ones((3, 2)))
normalize(jnp.arange(3.0))
