# oracle: runs
import warnings

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

warnings.simplefilter("error", DeprecationWarning)
mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
x = jnp.arange(16.0)

if hasattr(jax, "shard_map"):
    f = jax.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
else:
    import jax.experimental.shard_map

    f = jax.experimental.shard_map.shard_map(lambda a: a * 2, mesh, P("x"), P("x"))
y = f(x)
