# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def rms(x):
    try:
        return np.sqrt(np.mean(x**2))  # error: JX103
    except ValueError:  # a different error than the one NumPy on a tracer raises
        return jnp.sqrt(jnp.mean(x**2))


print(rms(jnp.ones(4)))
