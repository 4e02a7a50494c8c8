# oracle: raises ValueError: Sharding spec ('y',) implies that array axis 1 is partitioned 2 times
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jnp.ones((8, 5))
with jax.set_mesh(mesh):
    y = jax.reshard(x, P(None, "y"))  # error: JX504
