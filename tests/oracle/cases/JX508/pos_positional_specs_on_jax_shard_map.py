# oracle: raises TypeError: shard_map() takes from 0 to 1 positional arguments but 4 were given
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
x = jnp.arange(16.0)

f = jax.shard_map(lambda a: a * 2, mesh, P("x"), P("x"))  # error: JX508
y = f(x)
