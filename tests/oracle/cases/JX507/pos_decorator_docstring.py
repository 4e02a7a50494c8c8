# oracle: raises ValueError: shard_map applied to the function
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = jnp.arange(32.0).reshape(8, 4)


@jax.shard_map(mesh=mesh, in_specs=P(None, "y"), out_specs=P())  # error: JX507
def row_sums(a):
    """Sums each row of the shard."""
    return a.sum(axis=1)


y = row_sums(x)
