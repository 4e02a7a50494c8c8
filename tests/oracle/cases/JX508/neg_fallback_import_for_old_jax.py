# oracle: runs
import warnings

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

warnings.simplefilter("error", DeprecationWarning)
try:
    from jax import shard_map
except ImportError:
    from jax.experimental.shard_map import shard_map

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
x = jnp.arange(16.0)
y = shard_map(lambda a: a * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)
