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
def scale_by_shard_count(x):
    shards = lax.axis_size("x")
    if shards > 1:
        x = x / shards
    return x


print(scale_by_shard_count(jnp.ones(8)))
