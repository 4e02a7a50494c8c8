# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax.numpy as jnp
import numpy as np
from jax import lax


def body(carry, v):
    total = np.float32(carry + v)  # error: JX103
    return total, total


lax.scan(body, jnp.float32(0.0), jnp.arange(3.0))
