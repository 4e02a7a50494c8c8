# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def positive_mean(x):
    mask = x > 0
    total = jnp.sum(x, where=mask)
    count = mask.sum()
    clipped = x * mask
    return total / jnp.maximum(count, 1), clipped, jnp.count_nonzero(x)


positive_mean(jnp.array([1.0, -2.0, 3.0]))
