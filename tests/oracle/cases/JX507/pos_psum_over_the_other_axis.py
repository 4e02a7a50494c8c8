# oracle: raises ValueError: shard_map applied to the function
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = jnp.arange(32.0).reshape(8, 4)


def partial_sum(a):
    return jax.lax.psum(a, "y")


y = jax.shard_map(partial_sum, mesh=mesh, in_specs=P("x", "y"), out_specs=P())(x)  # error: JX507
