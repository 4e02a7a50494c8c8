# oracle: runs
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
body = lambda x: jax.lax.pcast(x, "i", to="varying") * 2
print(jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P("i"))(jnp.ones(1)).shape)
