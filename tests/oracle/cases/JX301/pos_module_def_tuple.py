# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def body(i, carry):
    count, acc = carry
    return count + 1, acc / 2


lax.fori_loop(0, 4, body, (0, jnp.arange(3)))  # error: JX301
