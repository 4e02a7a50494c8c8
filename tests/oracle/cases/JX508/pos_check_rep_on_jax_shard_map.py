# oracle: raises TypeError: shard_map() got an unexpected keyword argument 'check_rep'
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
x = jnp.arange(16.0)

f = jax.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P("x"), out_specs=P(), check_rep=False)  # error: JX508
y = f(x)
