# oracle: stdout compiles: 6
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return jnp.sum(x * x)


for i in range(6):
    size = 2 * i + 1
    total(jnp.arange(size))  # error: JX202
print("compiles:", total._cache_size())
