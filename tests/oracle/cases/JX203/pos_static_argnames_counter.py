# oracle: stdout compiles: 10
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="step")
def decay(x, step):
    return x * 0.99**step


x = jnp.ones(4)
for step in range(10):
    decay(x, step=step)  # error: JX203
print("compiles:", decay._cache_size())
