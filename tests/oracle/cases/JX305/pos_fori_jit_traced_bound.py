# oracle: raises ValueError: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax


def repeat(x, n):
    return lax.fori_loop(0, n, lambda i, c: c * 2, x)


jax.jit(jax.grad(repeat))(1.0, 3)  # error: JX305
