# oracle: runs
import jax.numpy as jnp

x = jnp.arange(3.0)
x.at[1].get()
print(x)
