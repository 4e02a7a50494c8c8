# oracle: runs
import jax
import jax.numpy as jnp

SCALE = 3


@jax.jit
def scale(x):
    factor = float(SCALE) / 2
    steps = int("4")
    half = int(SCALE * 0.5)
    return x * factor + steps + half


scale(jnp.arange(3.0))
