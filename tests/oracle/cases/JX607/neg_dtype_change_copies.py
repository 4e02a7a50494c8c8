# oracle: stdout [1. 2. 3.]
import jax.numpy as jnp
import numpy as np

counts = np.asarray(jnp.arange(3), dtype=np.float64)
counts += 1.0
print(counts)
