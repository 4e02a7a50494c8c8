# oracle: stdout [5. 1.]
import jax.numpy as jnp
import numpy as np

host = np.asarray(jnp.ones(2)).copy()
host[0] = 5.0
print(host)
