# oracle: runs
import warnings

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

warnings.simplefilter("error", DeprecationWarning)
mesh = jax.make_mesh((8,), ("x",), axis_types=(AxisType.Auto,))
x = jnp.arange(16.0)


def shard_map(f, mesh, in_specs, out_specs, check_rep=True):
    return jax.shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=check_rep)


y = shard_map(lambda a: a * a, mesh, P("x"), P("x"), check_rep=False)(x)
