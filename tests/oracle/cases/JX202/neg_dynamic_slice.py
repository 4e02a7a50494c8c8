# oracle: stdout compiles: 1
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def total(x):
    return jnp.sum(x * x)


data = jnp.arange(100.0)
for i in range(10):
    total(lax.dynamic_slice(data, (i * 8,), (8,)))  # always f32[8]
print("compiles:", total._cache_size())
