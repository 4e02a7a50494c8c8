# oracle: stdout ready when the clock stopped: True
import time

import jax
import jax.numpy as jnp


def timed(f, x):
    begin = time.perf_counter()
    y = f(x)
    return y, time.perf_counter() - begin


# `f` is not known to be jitted here; this one waits for its result.
y, seconds = timed(lambda x: jax.jit(lambda a: a @ a)(x).block_until_ready(), jnp.ones((500, 500)))
print("ready when the clock stopped:", y.is_ready())
