# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def to_host(x):
    host = np.asarray(x)  # error: JX103
    return jnp.asarray(host) + 1.0


to_host(jnp.arange(3.0))
