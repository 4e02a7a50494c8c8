# oracle: raises ValueError: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax


@jax.jit
def step(x, n):
    return jax.grad(lambda y: lax.fori_loop(0, n, lambda i, c: c * 2, y))(x)  # error: JX305


step(1.0, 3)
