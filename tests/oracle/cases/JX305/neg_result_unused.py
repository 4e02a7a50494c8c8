# oracle: runs
import jax
from jax import lax


def f(x):
    lax.while_loop(lambda c: c < 10.0, lambda c: c * 2, x)
    return x * 3


jax.grad(f)(1.0)
