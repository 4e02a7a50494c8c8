# oracle: runs
import numpy as np

import jax.numpy as jnp

host = np.ones(3)
print(host.device, jnp.asarray(host).device)
