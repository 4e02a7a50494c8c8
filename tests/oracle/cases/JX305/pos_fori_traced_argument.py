# oracle: raises ValueError: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax


def repeat(x, n):
    return lax.fori_loop(0, n, lambda i, c: (c[0] * 2, c[1]), (x, 1.0))[0]


@jax.jit
def step(x, n):
    return jax.grad(repeat)(x, n)  # error: JX305


step(1.0, 3)
