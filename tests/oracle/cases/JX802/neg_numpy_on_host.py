# oracle: stdout computed in: float64
import jax.numpy as jnp
import numpy as np


def reference_sum(values):
    host = np.asarray(values, dtype=np.float64)
    return np.sum(host.astype(np.float64))


total = reference_sum(jnp.full(1000, 0.1))
print("computed in:", total.dtype)
