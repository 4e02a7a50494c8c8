# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax.numpy as jnp
import numpy as onp
from jax import jit


@jit
def softmax(x):
    e = onp.exp(x - x.max())  # error: JX103
    return e / e.sum()


softmax(jnp.arange(3.0))
