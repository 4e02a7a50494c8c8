# oracle: raises ValueError: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax


def grow(x):
    return lax.while_loop(lambda c: c < 10.0, lambda c: c * 2, x)


jax.grad(grow)(1.0)  # error: JX305
