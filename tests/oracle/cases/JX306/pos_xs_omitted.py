# oracle: raises ValueError: scan got no values to scan over and `length` not provided
import jax.numpy as jnp
from jax import lax


def run():
    return lax.scan(lambda c, _: (c * 2, c), jnp.ones(2))  # error: JX306


run()
