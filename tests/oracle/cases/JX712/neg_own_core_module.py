# oracle: runs
import types

import jax.numpy as jnp

core = types.SimpleNamespace(get_aval=lambda x: (x.shape, x.dtype))
print(core.get_aval(jnp.ones(2)))
