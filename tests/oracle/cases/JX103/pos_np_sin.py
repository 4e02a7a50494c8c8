# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def wave(x):
    y = x * 2.0
    return np.sin(y)  # error: JX103


wave(jnp.arange(3.0))
