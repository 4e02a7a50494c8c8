# oracle: raises TypeError: shard_map() got an unexpected keyword argument 'check_rep'
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
x = jnp.arange(16.0)
from functools import partial


@partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"), check_rep=False)  # error: JX508
def double(a):
    return 2 * a


y = double(x)
