# oracle: runs
import jax
from jax import lax


def repeat(x, n):
    return lax.fori_loop(0, n, lambda i, c: c * 2, x)


@jax.jit
def step(x, n):
    return jax.grad(repeat)(x, 3)


step(1.0, 3)
