# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
from numpy import tanh


@jax.jit
def squash(x):
    return tanh(x + 1.0)  # error: JX103


squash(jnp.arange(3.0))
