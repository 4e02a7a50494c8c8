# oracle: raises TypeError: while_loop body function carry input and carry output must have equal types
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def run(n):
    return lax.fori_loop(0, n, lambda i, c: c.T, jnp.zeros((2, 3)))  # error: JX302


run(3)
