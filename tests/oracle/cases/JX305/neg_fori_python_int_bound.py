# oracle: runs
import jax
from jax import lax


def repeat(x, n):
    return lax.fori_loop(0, n, lambda i, c: c * 2, x)


jax.grad(repeat)(1.0, 3)
