# oracle: raises DuplicateSpecError: A single NamedSharding spec specification can map every mesh axis to at most one positional dimension, but P('x', 'x') has duplicate entries for `x`
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jnp.ones((8, 8))
with jax.set_mesh(mesh):
    y = jax.device_put(x, P("x", "x"))  # error: JX502
