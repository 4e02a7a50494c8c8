# oracle: runs
import warnings

import jax
import jax.numpy as jnp
from jax.core import ShapedArray

warnings.simplefilter("error", DeprecationWarning)
aval = ShapedArray((2,), jnp.float32)
with jax.core.ensure_compile_time_eval():
    print(aval, jnp.ones(2) + 1)
