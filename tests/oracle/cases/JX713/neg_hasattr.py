# oracle: runs
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

if hasattr(jax.lax, "pvary"):
    to_varying = lambda x, axis: jax.lax.pvary(x, axis)
else:
    to_varying = lambda x, axis: jax.lax.pcast(x, axis, to="varying")
mesh = jax.make_mesh((8,), ("i",), axis_types=(jax.sharding.AxisType.Auto,))
print(jax.shard_map(lambda x: to_varying(x, "i"), mesh=mesh, in_specs=P(), out_specs=P("i"))(jnp.ones(1)).shape)
