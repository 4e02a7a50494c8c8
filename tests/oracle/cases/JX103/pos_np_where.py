# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def relu(x):
    return np.where(x > 0, x, 0.0)  # error: JX103


relu(jnp.arange(-1.0, 2.0))
