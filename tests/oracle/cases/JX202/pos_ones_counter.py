# oracle: stdout compiles: 8
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return jnp.sum(x * x)


for i in range(1, 9):
    total(jnp.ones((i, 3)))  # error: JX202
print("compiles:", total._cache_size())
