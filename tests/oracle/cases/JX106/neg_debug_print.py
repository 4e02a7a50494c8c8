# oracle: stdout x = [0. 1. 2.]
import jax
import jax.numpy as jnp


@jax.jit
def double(x):
    jax.debug.print("x = {}", x)
    return x * 2.0


double(jnp.arange(3.0))
