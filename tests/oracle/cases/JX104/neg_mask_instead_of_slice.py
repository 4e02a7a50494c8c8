# oracle: runs
import jax
import jax.numpy as jnp


def keep_prefix(x, n):
    idx = jnp.arange(x.shape[0])
    return jnp.where(idx < n, x, 0.0)


keep_prefix_jit = jax.jit(keep_prefix)
keep_prefix_jit(jnp.arange(5.0), 2)
