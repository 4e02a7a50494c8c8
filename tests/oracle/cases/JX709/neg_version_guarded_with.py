# oracle: runs
import warnings

import jax
import jax.numpy as jnp

warnings.simplefilter("error", DeprecationWarning)
mesh = jax.make_mesh((8,), ("x",))
ctx = jax.set_mesh(mesh) if hasattr(jax, "set_mesh") else mesh
with ctx:
    print(jnp.ones(2) + 1)
