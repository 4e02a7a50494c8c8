# oracle: runs
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("x",))


@functools.partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
def gather_rows(x):
    shards = jax.lax.psum(1, axis_name="x")
    out = jnp.zeros((x.shape[0] * shards,))
    for i in range(1, shards):
        out = out + i
    return out[: x.shape[0]] + x


print(gather_rows(jnp.ones(8)))
