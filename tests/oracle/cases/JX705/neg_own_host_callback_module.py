# oracle: runs
import types

import jax.numpy as jnp

host_callback = types.SimpleNamespace(id_print=lambda x: x)
print(host_callback.id_print(jnp.ones(2)))
