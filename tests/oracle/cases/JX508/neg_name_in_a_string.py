# oracle: runs
import warnings

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

warnings.simplefilter("error", DeprecationWarning)
mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
x = jnp.arange(16.0)

print("jax.experimental.shard_map.shard_map(f, mesh, in_specs, out_specs, check_rep=False)")
y = jax.jit(jax.shard_map(lambda a: a * 3, mesh=mesh, in_specs=P("x"), out_specs=P("x")))(x)
