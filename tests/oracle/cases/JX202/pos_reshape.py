# oracle: stdout compiles: 6
import jax
import jax.numpy as jnp


@jax.jit
def row_sums(x):
    return x.sum(axis=1)


data = jnp.arange(60.0)
for rows in range(1, 7):
    row_sums(data.reshape(rows, -1))  # error: JX202
print("compiles:", row_sums._cache_size())
