# oracle: runs
import jax.numpy as jnp
import numpy as np

device_values = jnp.arange(3.0)
host = np.array(device_values)
host[0] = 42.0
back = jnp.asarray(host)
