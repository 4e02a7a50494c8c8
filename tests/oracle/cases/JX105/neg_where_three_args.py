# oracle: runs
import jax
import jax.numpy as jnp


@jax.jit
def relu(x):
    return jnp.where(x > 0, x, 0.0), jnp.where(x < 0, -1.0, 1.0)


relu(jnp.array([1.0, -2.0, 3.0]))
