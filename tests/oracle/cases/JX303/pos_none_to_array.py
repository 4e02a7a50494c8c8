# oracle: raises TypeError: while_loop body function carry input and carry output must have the same pytree structure
import jax.numpy as jnp
from jax import lax


def body(carry):
    i, _best = carry
    return i + 1, jnp.zeros(3)


lax.while_loop(lambda c: c[0] < 3, body, (0, None))  # error: JX303
