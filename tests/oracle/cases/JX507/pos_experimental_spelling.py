# oracle: raises ValueError: shard_map applied to the function
import jax
import jax.numpy as jnp
from jax.experimental.shard_map import shard_map  # error: JX508
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = jnp.arange(32.0).reshape(8, 4)

f = shard_map(lambda a: jnp.max(a, axis=0), mesh, P("x"), P())  # error: JX507
y = f(x)
