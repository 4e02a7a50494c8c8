# oracle: raises TypeError: while_loop body function carry input and carry output must have equal types
import jax.numpy as jnp
from jax import lax


def run():
    def body(c):
        return c.astype(jnp.bfloat16)

    return lax.while_loop(lambda c: c.sum() < 10.0, body, jnp.ones(4))  # error: JX301


run()
