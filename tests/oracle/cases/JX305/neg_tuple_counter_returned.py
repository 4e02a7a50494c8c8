# oracle: runs
import jax
from jax import lax


def steps_taken(x):
    y, steps = lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0] * 2, c[1] + 1), (x, 0))
    return steps * 1.0 + x


jax.grad(steps_taken)(1.0)
