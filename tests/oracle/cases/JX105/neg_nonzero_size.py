# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def active_indices(x):
    (idx,) = jnp.nonzero(x > 1.0, size=3, fill_value=-1)
    pos = jnp.argwhere(x > 1.0, size=2)
    flat = jnp.flatnonzero(x, size=4)
    return idx, pos, flat


active_indices(jnp.arange(4.0))
