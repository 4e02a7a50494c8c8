# oracle: runs
import warnings

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

warnings.simplefilter("error", DeprecationWarning)
mesh = jax.make_mesh((8,), ("x",), axis_types=(jax.sharding.AxisType.Explicit,))
with jax.set_mesh(mesh):
    y = jax.device_put(jnp.arange(8.0), P("x"))
print(y.sharding)
