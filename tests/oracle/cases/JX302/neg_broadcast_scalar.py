# oracle: runs
import jax.numpy as jnp
from jax import lax


def body(carry):
    i, x = carry
    return i + 1, x * jnp.float32(2) + 1


lax.while_loop(lambda c: c[0] < 3, body, (0, jnp.zeros((2, 3))))
