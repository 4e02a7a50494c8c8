# oracle: runs
import jax
import jax.numpy as jnp

x = jnp.zeros(3)
if hasattr(jax.ops, "index_update"):
    x = jax.ops.index_update(x, 0, 1.0)
else:
    x = x.at[0].set(1.0)
print(x)
