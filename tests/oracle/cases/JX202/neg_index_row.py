# oracle: stdout compiles: 1
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return jnp.sum(x * x)


data = jnp.ones((10, 4))
for i in range(10):
    total(data[i])  # always f32[4]
print("compiles:", total._cache_size())
