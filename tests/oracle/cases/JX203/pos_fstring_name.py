# oracle: stdout compiles: 5
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="name")
def tagged(x, name):
    return x * len(name)


x = jnp.ones(2)
for i in range(5):
    tagged(x, name=f"layer{i}")  # error: JX203
print("compiles:", tagged._cache_size())
