# oracle: runs
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def flip_if_negative(x):
    return lax.cond(x.sum() > 0, lambda v: v, lambda v: -v, x)


def count_up(limit):
    return lax.while_loop(lambda c: c < limit, lambda c: c + 1, 0)


flip_if_negative(jnp.arange(3.0))
jax.jit(count_up)(5)
