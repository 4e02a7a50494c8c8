# oracle: raises AssertionError: (1, P('x', 'y'))
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
bias = jax.device_put(jnp.zeros(8), NamedSharding(mesh, P("x", "y")))  # error: JX503
