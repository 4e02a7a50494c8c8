# oracle: runs
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((8,), ("d",), axis_types=(jax.sharding.AxisType.Auto,))
x = jax.device_put(jnp.stack([jnp.ones(3)] * 8), NamedSharding(mesh, P("d")))
print(x.shape, len(x.addressable_shards))
