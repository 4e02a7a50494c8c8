# oracle: runs
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ("x",))


@functools.partial(jax.shard_map, mesh=mesh, in_specs=(P("x"), None), out_specs=P("x"))
def scale(x, factor):
    if factor > 1:
        x = x * factor
    return x


print(scale(jnp.ones(8), 3))
