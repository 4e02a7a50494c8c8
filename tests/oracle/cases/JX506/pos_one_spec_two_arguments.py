# oracle: raises ValueError: pytree structure error: different lengths of tuple at key path
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = jnp.arange(32.0).reshape(8, 4)


def scaled(a, b):
    return a * b


f = jax.shard_map(scaled, mesh=mesh, in_specs=(P("x"),), out_specs=P("x"))  # error: JX506
y = f(x, x)
