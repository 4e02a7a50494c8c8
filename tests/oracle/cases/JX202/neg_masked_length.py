# oracle: stdout compiles: 1
import jax
import jax.numpy as jnp


@jax.jit
def masked_total(x, n):
    mask = jnp.arange(x.shape[0]) < n
    return jnp.sum(jnp.where(mask, x * x, 0.0))


data = jnp.arange(100.0)
for i in range(1, 11):
    masked_total(data, i)  # same shape, the length is a traced value
print("compiles:", masked_total._cache_size())
