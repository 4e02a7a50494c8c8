# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def halve(x):
    return x.astype(jnp.float16) / 2


def body(i, c):
    return halve(c)


lax.fori_loop(0, 3, body, jnp.ones((2, 2)))  # error: JX301
