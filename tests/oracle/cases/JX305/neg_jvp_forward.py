# oracle: runs
import jax
from jax import lax


def grow(x):
    return lax.while_loop(lambda c: c < 10.0, lambda c: c * 2, x)


jax.jvp(grow, (1.0,), (1.0,))
