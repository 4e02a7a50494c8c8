# oracle: runs
import jax.numpy as jnp
from jax import lax


def step(total, x):
    return total + x.sum(), x * 2


lax.scan(step, 0.0, jnp.ones((4, 2)))
