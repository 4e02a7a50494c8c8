# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def first_row(m):
    return m[0]


def body(i, c):
    return first_row(c)


lax.fori_loop(0, 3, body, jnp.ones((2, 2)))  # error: JX302
