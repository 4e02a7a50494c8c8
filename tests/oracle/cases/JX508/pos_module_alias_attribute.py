# oracle: raises DeprecationWarning: jax.experimental.shard_map is deprecated in v0.8.0
import warnings

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

warnings.simplefilter("error", DeprecationWarning)
mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
x = jnp.arange(16.0)
from jax.experimental import shard_map as shmap

f = shmap.shard_map(lambda a: -a, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_rep=True)  # error: JX508
y = f(x)
