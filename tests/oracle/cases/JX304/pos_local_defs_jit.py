# oracle: raises TypeError: cond branches must have equal output types
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def step(p):
    def yes():
        return jnp.zeros((2, 2))

    def no():
        return jnp.zeros((2, 2), dtype=jnp.bfloat16)

    return lax.cond(p, yes, no)  # error: JX304


step(True)
