# oracle: stdout ready when the clock stopped: False
import timeit

import jax
import jax.numpy as jnp

matmul = jax.jit(lambda a: a @ a @ a)


def bench(x):
    begin = timeit.default_timer()
    y = matmul(x)
    end = timeit.default_timer()  # error: JX605
    return y, y.is_ready(), end - begin


a = jnp.ones((1500, 1500))
matmul(a).block_until_ready()
y, ready, seconds = bench(a)
print("ready when the clock stopped:", ready)
