# oracle: stdout computed in: float32
import jax.numpy as jnp
import numpy as np

DTYPE = np.float64


def load_measurements(rows):
    return jnp.asarray(rows, DTYPE)  # error: JX802


data = load_measurements([[1.0 + 1e-9, 2.0], [3.0, 4.0]])
print("computed in:", data.dtype)
print("1 + 1e-9 kept:", bool(data[0, 0] != 1.0))
