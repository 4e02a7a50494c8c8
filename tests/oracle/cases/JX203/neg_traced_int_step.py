# oracle: stdout compiles: 1
import jax
import jax.numpy as jnp


@jax.jit
def decay(x, step):
    return x * 0.99**step


x = jnp.ones(4)
for step in range(10):
    decay(x, step)  # a Python int of stable type: one weakly typed int32 key
print("compiles:", decay._cache_size())
