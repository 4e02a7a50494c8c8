# oracle: stdout unchanged [0. 0. 0.]
import jax.numpy as jnp

x = jnp.zeros(3)
x.at[0].set(1.0)  # error: JX606
print("unchanged", x)
