# oracle: stdout compiles: 8
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def repeat(x, n):
    return jnp.tile(x, n)


x = jnp.ones(2)
for i in range(8):
    repeat(x, i + 1)  # error: JX203
print("compiles:", repeat._cache_size())
