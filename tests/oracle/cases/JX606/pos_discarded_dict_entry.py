# oracle: stdout first [1. 1.]
import jax.numpy as jnp

params = {"w": jnp.ones((2, 2))}
params["w"].at[0].multiply(0.0)  # error: JX606
print("first", params["w"][0])
