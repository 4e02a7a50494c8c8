# oracle: raises ValueError: Sharding spec ('x',) implies that array axis 0 is partitioned 4 times, but does not evenly divide the dimension size 6
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jax.device_put(jnp.ones((6, 4)), NamedSharding(mesh, P("x", None)))  # error: JX504
