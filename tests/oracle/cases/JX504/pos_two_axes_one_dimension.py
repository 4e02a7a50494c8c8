# oracle: raises ValueError: Sharding spec ('x', 'y') implies that array axis 0 is partitioned 8 times
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jax.device_put(jnp.ones((12, 3)), NamedSharding(mesh, P(("x", "y"))))  # error: JX504
