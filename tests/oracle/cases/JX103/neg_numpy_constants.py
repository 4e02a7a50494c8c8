# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np

MASK = np.array([1.0, 0.0, 1.0], dtype=np.float32)


@jax.jit
def gaussian(x):
    norm = 1.0 / np.sqrt(2.0 * np.pi)
    y = jnp.exp(-(x**2) / 2.0) * norm
    return y.astype(np.float32) * MASK + np.float32(0.5)


gaussian(jnp.arange(3.0))
