# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))

f = jax.shard_map(lambda a: a, mesh=mesh, in_specs=P("x", "y"), out_specs=P("x", "y"))
y = f(jnp.ones((8, 8)))
