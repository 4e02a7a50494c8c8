# oracle: runs
import jax.numpy as jnp

x = jnp.ones(3)
try:
    where = x.device()
except TypeError:
    where = x.device
print(where)
