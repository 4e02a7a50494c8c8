# oracle: raises ValueError: shard_map applied to the function 'double' was given an in_specs entry which is too long
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))


def double(a):
    return a * 2


f = jax.shard_map(double, mesh=mesh, in_specs=P("x", None, None), out_specs=P("x"))
y = f(jnp.ones((8, 4)))  # error: JX503
