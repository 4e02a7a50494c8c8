# oracle: raises TypeError: while_loop body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def body(carry):
    i, x = carry
    return i + 1, x + jnp.ones((2, 3))


lax.while_loop(lambda c: c[0] < 3, body, (0, jnp.zeros(3)))  # error: JX302
