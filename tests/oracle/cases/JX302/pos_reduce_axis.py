# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def body(i, m):
    return m.sum(axis=0)


lax.fori_loop(0, 2, body, jnp.ones((3, 3)))  # error: JX302
