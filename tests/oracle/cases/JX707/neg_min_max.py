# oracle: runs
import jax.numpy as jnp

x = jnp.array([-3.0, 0.5, 4.0])
print(jnp.clip(x, min=-1.0, max=1.0), jnp.clip(x, -1.0, 1.0))
