# oracle: stdout compiles: 10
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return jnp.sum(x * x)


data = jnp.arange(100.0)
for i in range(1, 11):
    total(data[:i])  # error: JX202
print("compiles:", total._cache_size())
