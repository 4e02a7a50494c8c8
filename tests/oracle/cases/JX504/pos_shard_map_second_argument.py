# oracle: raises ValueError: shard_map applied to the function 'add' was given argument arrays with axis sizes that are not evenly divisible by the corresponding mesh axis sizes
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))


def add(a, b):
    return a + b


f = jax.shard_map(add, mesh=mesh, in_specs=(P("x"), P(None, "y")), out_specs=P("x", "y"))
y = f(jnp.ones((8, 6)), jnp.ones((8, 3)))  # error: JX504
