# oracle: stdout updated [1. 0. 0.]
import jax.numpy as jnp

x = jnp.zeros(3)
x = x.at[0].set(1.0)
print("updated", x)
