# oracle: stdout [1. 0. 0.]
import jax.numpy as jnp
import numpy as np

host = np.array(jnp.zeros(3))
host[0] = 1.0
print(host)
