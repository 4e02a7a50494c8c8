# oracle: raises ValueError: Sharding spec ('x',) implies that array axis 0 is partitioned 4 times
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jnp.ones((6, 4))
with jax.set_mesh(mesh):
    y = jax.device_put(x, P("x"))  # error: JX504
