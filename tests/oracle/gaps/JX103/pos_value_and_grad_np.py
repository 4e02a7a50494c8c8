# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
import numpy as np


def loss(w):
    return np.square(w).sum()  # error: JX103


jax.value_and_grad(loss)(jnp.arange(3.0))
