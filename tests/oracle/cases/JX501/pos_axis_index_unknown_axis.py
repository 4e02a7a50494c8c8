# oracle: raises NameError: Found an unbound axis name: z
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))


def offset(a):
    return a + jax.lax.axis_index("z")  # error: JX501


f = jax.shard_map(offset, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
y = f(jnp.ones((8, 4)))
