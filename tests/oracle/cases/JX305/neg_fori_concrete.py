# oracle: runs
import jax
from jax import lax


def grow(x):
    return lax.fori_loop(0, 4, lambda i, c: c * 2, x)


jax.grad(grow)(1.0)
