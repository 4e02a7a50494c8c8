# oracle: stdout concatenated (4,)
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, out_shardings=None)
def concatenate(parts):
    if isinstance(parts[0], np.ndarray):  # never true under jit: the parts are tracers
        return np.concatenate(parts)
    return jnp.concatenate(parts)


print("concatenated", concatenate([jnp.ones(2), jnp.zeros(2)]).shape)
