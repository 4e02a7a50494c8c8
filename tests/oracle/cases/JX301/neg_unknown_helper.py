# oracle: runs
import jax.numpy as jnp
from jax import lax
from jax.nn import softmax


def body(i, c):
    return softmax(c)


lax.fori_loop(0, 3, body, jnp.zeros(3))
