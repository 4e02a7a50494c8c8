# oracle: stdout falling back to the host path: TracerArrayConversionError
import jax
import jax.numpy as jnp
import numpy as np


def normalize(x):
    try:
        return jax.jit(lambda v: np.linalg.norm(v) * v)(x)
    except TypeError as error:  # TracerArrayConversionError is a TypeError
        print("falling back to the host path:", type(error).__name__)
        return np.linalg.norm(np.asarray(x)) * np.asarray(x)


normalize(jnp.ones(3))
