# oracle: raises ValueError: shard_map applied to the function
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = jnp.arange(32.0).reshape(8, 4)

w = jnp.ones((4, 3))


def project(a, weights):
    return jnp.dot(a, weights)


y = jax.jit(jax.shard_map(project, mesh=mesh, in_specs=(P("x"), P()), out_specs=P()))(x, w)  # error: JX507
