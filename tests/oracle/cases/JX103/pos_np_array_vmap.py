# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
import numpy as np


def row_norm(row):
    squared = row * row
    arr = np.array(squared)  # error: JX103
    return jnp.sqrt(arr.sum())


jax.vmap(row_norm)(jnp.ones((2, 3)))
