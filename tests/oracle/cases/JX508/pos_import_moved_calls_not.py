# oracle: raises TypeError: shard_map() takes from 0 to 1 positional arguments but 5 were given
import jax
import jax.numpy as jnp
from jax import shard_map
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
x = jnp.arange(16.0)


def total(a):
    return jax.lax.psum(jnp.sum(a), "x")


y = shard_map(total, mesh, P("x"), P(), False)(x)  # error: JX508
