# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def step(total, x):
    return total + x, x


lax.scan(step, 0.0, jnp.ones((4, 2)))  # error: JX302
