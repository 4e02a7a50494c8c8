# oracle: raises ValueError: shard_map in_specs argument must refer to an axis marked as manual
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))

f = jax.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P("rows"), out_specs=P("x"))  # error: JX501
y = f(jnp.ones((8, 4)))
