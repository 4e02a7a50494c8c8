# oracle: stdout result: 2.0
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def count(x, names):
    return x[0] * len(names)


print("result:", float(count(jnp.ones(4), frozenset({"a", "b"}))))
