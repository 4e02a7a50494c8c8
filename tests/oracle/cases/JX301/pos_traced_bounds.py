# oracle: raises TypeError: while_loop body function carry input and carry output must have equal types
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def run(n):
    return lax.fori_loop(0, n, lambda i, c: jnp.where(c > 0, c, 0.5), jnp.zeros(3, dtype=jnp.int32))  # error: JX301


run(3)
