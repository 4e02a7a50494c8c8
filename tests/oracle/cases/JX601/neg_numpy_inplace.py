# oracle: runs
import jax.numpy as jnp
import numpy as np

buf = np.zeros(4)
buf[0] = 1.0
buf[1:3] += 2.0
grid = np.ones((2, 3), dtype=np.float32)
grid[:, 0] = 0.0
out = jnp.asarray(buf) + jnp.asarray(grid).sum()
