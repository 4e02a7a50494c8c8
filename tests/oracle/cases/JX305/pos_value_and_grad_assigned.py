# oracle: raises ValueError: Reverse-mode differentiation does not work for lax.while_loop
import jax
from jax import lax


def loss(x):
    y = lax.while_loop(lambda c: c.sum() < 10.0, lambda c: c * 2, x)
    return (y**2).sum()


jax.value_and_grad(loss)(jax.numpy.ones(3))  # error: JX305
