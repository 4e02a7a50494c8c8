# oracle: raises TypeError: clip() got an unexpected keyword argument 'a_max'
import jax
from jax import numpy as np


@jax.jit
def relu6(x):
    return np.clip(np.maximum(x, 0.0), a_max=6.0)  # error: JX707


relu6(np.arange(-2.0, 9.0))
