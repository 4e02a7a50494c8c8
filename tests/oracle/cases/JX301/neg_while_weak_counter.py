# oracle: runs
import jax.numpy as jnp
from jax import lax


def body(carry):
    i, x = carry
    return i + 1, x * 2.0


lax.while_loop(lambda c: c[0] < 3, body, (0, jnp.ones(2)))
