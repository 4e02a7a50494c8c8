# oracle: raises TypeError: cond_fun must return a boolean scalar
import jax.numpy as jnp
from jax import lax


def run():
    def cond(c):
        return c[0]

    return lax.while_loop(cond, lambda c: c + 1, jnp.zeros(2))  # error: JX307


run()
