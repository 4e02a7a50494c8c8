# oracle: runs
import contextlib
import warnings

import jax
import jax.numpy as jnp

warnings.simplefilter("error", DeprecationWarning)
mesh = contextlib.nullcontext()
with mesh:
    print(jnp.ones(2))
with jax.named_scope("block"):
    pass
