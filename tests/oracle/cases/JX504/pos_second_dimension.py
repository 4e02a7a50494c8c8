# oracle: raises ValueError: Sharding spec ('y',) implies that array axis 1 is partitioned 2 times
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jax.device_put(jnp.ones((8, 3)), NamedSharding(mesh, P("x", "y")))  # error: JX504
