# oracle: raises IndexError: Slice entries must be static integers
import jax
import jax.numpy as jnp


def window(x, start):
    return x[start : start + 2]  # error: JX104


window_jit = jax.jit(window)
window_jit(jnp.arange(5.0), 1)
