# oracle: stdout compiles: 1
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="depth")
def stack(x, depth):
    for _ in range(depth):
        x = jnp.tanh(x)
    return x


x = jnp.ones(4)
depth = 3
for step in range(10):
    x = stack(x, depth=depth)
print("compiles:", stack._cache_size())
