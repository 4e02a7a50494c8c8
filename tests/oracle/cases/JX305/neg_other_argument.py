# oracle: runs
import jax
from jax import lax


def f(x, limit):
    steps = lax.while_loop(lambda c: c < limit, lambda c: c * 2, limit / 8)
    return x * steps


jax.grad(f)(1.0, 16.0)
