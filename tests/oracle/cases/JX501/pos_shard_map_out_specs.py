# oracle: raises ValueError: shard_map out_specs argument must refer to an axis marked as manual
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))


def body(a, b):
    return a + b


f = jax.shard_map(body, mesh=mesh, in_specs=(P("x"), P("x")), out_specs=P(("x", "z")))  # error: JX501
y = f(jnp.ones((8, 4)), jnp.ones((8, 4)))
