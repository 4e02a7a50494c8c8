# oracle: raises ValueError: shard_map applied to the function
from functools import partial

import numpy as np

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("i", "j"))
a = jnp.arange(128.0).reshape(8, 16)


@partial(jax.shard_map, mesh=mesh, in_specs=P("i", "j"), out_specs=P("i", None))  # error: JX507
def gather_columns(block):
    return jax.lax.all_gather(block, "j", tiled=True, axis=1)


y = gather_columns(a)
