# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def body(i, carry):
    x, total = carry
    return x, total + x.mean()


lax.fori_loop(0, 3, body, (jnp.ones(4), jnp.int32(0)))  # error: JX301
