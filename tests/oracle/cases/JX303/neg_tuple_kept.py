# oracle: runs
import jax.numpy as jnp
from jax import lax


def body(i, carry):
    x, y = carry
    return (x + 1, y)


lax.fori_loop(0, 3, body, (jnp.zeros(2), jnp.ones(2)))
