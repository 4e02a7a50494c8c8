# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def soft_clip(x):
    big = x > 1.0
    y = jnp.where(big, 1.0, x)
    flag = jnp.logical_and(x >= 0, x < 5).all()
    return jnp.where(flag, y, 0.0), jnp.logical_not(big)


soft_clip(jnp.arange(3.0))
