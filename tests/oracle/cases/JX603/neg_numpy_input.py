# oracle: stdout host: [1. 1. 1. 1.]
import functools

import jax
import numpy as np


@functools.partial(jax.jit, donate_argnums=0)
def update(params, grads):
    return params - 0.1 * grads


host = np.ones(4, np.float32)
new = update(host, host)  # the device copy is donated, not the NumPy array
print("host:", host)
