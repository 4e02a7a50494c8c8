# oracle: stdout compiles: 1
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return jnp.sum(x * x)


for size in (8, 8, 8, 8):
    total(jnp.ones(size))
for i in range(5):
    total(jnp.ones(8) * i)
print("compiles:", total._cache_size())
