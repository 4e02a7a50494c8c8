# oracle: runs
import jax.numpy as jnp

x = jnp.arange(5.0)
n = int((x > 1).sum())
k = jnp.argmax(x)
padding = jnp.zeros(n)
block = jnp.ones((k, 3))
prefix = x[:k]
for _ in range(k):
    pass
