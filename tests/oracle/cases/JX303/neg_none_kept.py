# oracle: runs
import jax.numpy as jnp
from jax import lax


def body(carry):
    i, extra, x = carry
    return i + 1, extra, x * 2


lax.while_loop(lambda c: c[0] < 3, body, (0, None, jnp.ones(2)))
