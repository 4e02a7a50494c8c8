# oracle: raises TypeError: scan body function carry input and carry output must have the same pytree structure
import jax.numpy as jnp
from jax import lax


def run():
    def update(x, y):
        return {"x": x, "y": y}

    def body(i, c):
        return update(c[0], c[1])

    return lax.fori_loop(0, 3, body, (jnp.zeros(2), jnp.ones(2)))  # error: JX303


run()
