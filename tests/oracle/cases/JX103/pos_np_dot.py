# oracle: raises TracerArrayConversionError: The numpy.ndarray conversion method __array__() was called on traced array
import jax
import jax.numpy as jnp
import numpy as np


def project(w, x):
    return np.dot(w, x)  # error: JX103


project_jit = jax.jit(project)
project_jit(jnp.ones((2, 3)), jnp.arange(3.0))
