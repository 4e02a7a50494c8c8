# oracle: raises DuplicateSpecError: A single NamedSharding spec specification can map every mesh axis to at most one positional dimension, but P(('x', 'y'), 'x') has duplicate entries for `x`
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
jax.set_mesh(mesh)
x = jax.device_put(jnp.ones((8, 8)), P(("x", "y"), "x"))  # error: JX502
