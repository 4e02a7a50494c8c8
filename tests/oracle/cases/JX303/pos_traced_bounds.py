# oracle: raises TypeError: while_loop body function carry input and carry output must have the same pytree structure
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def run(n):
    return lax.fori_loop(0, n, lambda i, c: (c,), jnp.zeros(3))  # error: JX303


run(3)
