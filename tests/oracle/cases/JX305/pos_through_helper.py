# oracle: raises ValueError: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax


def refine(v):
    return lax.while_loop(lambda c: c < 5.0, lambda c: c + 1.5, v)


def loss(w, scale):
    return refine(w) * scale


jax.grad(loss)(1.0, 2.0)  # error: JX305
