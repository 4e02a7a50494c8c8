# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))

f = jax.shard_map(lambda a: a, mesh=mesh, in_specs=P("x", "x"), out_specs=P("x", "x"))
