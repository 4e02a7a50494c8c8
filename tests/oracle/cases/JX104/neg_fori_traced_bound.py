# oracle: runs
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def repeat_add(x, steps):
    return lax.fori_loop(0, steps, lambda i, acc: acc + 1.0, x)


repeat_add(jnp.arange(3.0), 3)
