# oracle: runs
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
x = jnp.arange(32.0).reshape(8, 4)

from functools import partial


@partial(jax.shard_map, mesh=mesh, in_specs=({"w": P("x"), "b": P()},), out_specs=P("x"))
def apply(params):
    return params["w"] + params["b"]


y = apply({"w": x, "b": jnp.ones(4)})
