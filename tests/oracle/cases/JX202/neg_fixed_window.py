# oracle: stdout compiles: 1
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return jnp.sum(x * x)


data = jnp.arange(100.0)
for i in range(10):
    total(data[i : i + 8])  # the window has length 8 every time
print("compiles:", total._cache_size())
