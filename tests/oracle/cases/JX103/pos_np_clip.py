# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def bounded(x):
    # Unlike np.sum, np.clip does not forward to the tracer's method: it converts the argument.
    return np.clip(x, 0.0, 1.0)  # error: JX103


bounded(jnp.linspace(-1.0, 2.0, 4))
