# oracle: runs
import jax
from jax import lax


def repeat(x, n):
    return lax.fori_loop(0, n, lambda i, c: c * 2, x)


jax.jit(jax.grad(repeat), static_argnums=1)(1.0, 3)
