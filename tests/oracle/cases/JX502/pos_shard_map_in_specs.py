# oracle: raises DuplicateSpecError: A single NamedSharding spec specification can map every mesh axis to at most one positional dimension, but P(('y', 'y'),) has duplicate entries for `y`
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))


def add(a, b):
    return a + b


f = jax.shard_map(add, mesh=mesh, in_specs=(P("x"), P(("y", "y"))), out_specs=P("x", "y"))  # error: JX502
y = f(jnp.ones((8, 8)), jnp.ones((8, 8)))
