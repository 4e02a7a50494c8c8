# oracle: stdout compiles: 2
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def repeat(x, n):
    return jnp.tile(x, n)


x = jnp.ones(2)
for i in range(10):
    repeat(x, i % 2 + 1)  # two values: two compiles, not one per iteration
print("compiles:", repeat._cache_size())
