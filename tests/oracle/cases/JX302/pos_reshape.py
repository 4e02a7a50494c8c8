# oracle: raises TypeError: scan body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def run():
    def body(i, c):
        return c.reshape(2, -1)

    return lax.fori_loop(0, 3, body, jnp.zeros(6))  # error: JX302


run()
