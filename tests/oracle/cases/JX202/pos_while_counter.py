# oracle: stdout compiles: 5
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return jnp.sum(x * x)


k = 0
while k < 40:
    total(jnp.zeros(k))  # error: JX202
    k += 8
print("compiles:", total._cache_size())
