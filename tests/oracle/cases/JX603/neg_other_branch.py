# oracle: stdout result: 6.0
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnums=0)
def double(x):
    return x * 2.0


def pick(flag):
    a = jnp.ones(3)
    if flag:
        b = double(a)
    else:
        b = a + 1.0
    return b


print("result:", float(pick(True).sum()))
