# oracle: runs
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = jnp.arange(32.0).reshape(8, 4)


def nested(a, b):
    return (a, b), a + b


f = jax.shard_map(nested, mesh=mesh, in_specs=(P("x"), P("x")), out_specs=((P("x"), P("x")), P("x")))
(y, z), w = f(x, x)
