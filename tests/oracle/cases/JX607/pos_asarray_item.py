# oracle: raises ValueError: assignment destination is read-only
import jax.numpy as jnp
import numpy as np

host = np.asarray(jnp.zeros(3))
host[0] = 1.0  # error: JX607
