# oracle: runs
import jax
import jax.numpy as jnp


def repeat(x, times, verbose=False):
    while times > 0:
        x = x + 1.0
        times -= 1
    if verbose:
        x = x * 1.0
    return x


repeat_jit = jax.jit(repeat, static_argnums=(1, 2))
repeat_jit(jnp.arange(3.0), 3, True)
