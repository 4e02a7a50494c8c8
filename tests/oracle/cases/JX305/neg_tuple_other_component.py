# oracle: runs
import jax
from jax import lax


def count(x):
    return lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0] * 2, c[1] + 1), (x, 0))[1].astype(float) + x


jax.grad(count)(1.0)
