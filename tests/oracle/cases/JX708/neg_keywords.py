# oracle: runs
import jax
import jax.numpy as jnp

fast = jax.jit(lambda x, n: x * n, static_argnums=(1,))
print(fast(jnp.ones(2), 3))
