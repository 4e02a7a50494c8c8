# oracle: raises DuplicateSpecError: A single NamedSharding spec specification can map every mesh axis to at most one positional dimension, but P('x', 'x') has duplicate entries for `x`
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))

f = jax.shard_map(lambda a: a, mesh=mesh, in_specs=P("x"), out_specs=P("x", "x"))  # error: JX502
y = f(jnp.ones((8, 8)))
