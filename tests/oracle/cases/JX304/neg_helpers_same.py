# oracle: runs
import jax.numpy as jnp
from jax import lax


def double(x):
    return x * 2


def run(p):
    def yes(x):
        return double(x), jnp.int32(1)

    def no(x):
        return x, jnp.int32(0)

    return lax.cond(p, yes, no, jnp.ones(3))


run(True)
