# oracle: runs
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("x",))


@functools.partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
def one_row_per_shard(x):
    shards = lax.axis_size("x")
    return jnp.zeros((shards,)) + x.sum()


print(one_row_per_shard(jnp.ones(8)).shape)
