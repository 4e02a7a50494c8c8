# oracle: runs
import jax.numpy as jnp
from jax import lax


def run(xs, ys):
    return lax.scan(lambda c, x: (c + x[0] + x[1], None), 0.0, (xs, ys))


run(jnp.ones(3), jnp.ones(3))
