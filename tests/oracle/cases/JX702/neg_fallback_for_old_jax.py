# oracle: runs
import warnings

import jax
import jax.numpy as jnp

warnings.simplefilter("error", DeprecationWarning)
if jax.__version_info__ < (0, 4, 7):
    from jax.experimental.pjit import pjit as jit_like
else:
    jit_like = jax.jit

print(jit_like(lambda x: x + 1)(jnp.ones(2)))
