# oracle: raises TypeError: cond branches must have equal output types
import jax.numpy as jnp
from jax import lax


def small():
    return jnp.zeros(2)


def large():
    return jnp.zeros(3)


lax.cond(True, small, large)  # error: JX304
