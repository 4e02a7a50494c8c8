# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
rows = NamedSharding(mesh, P("x", None))
flat = NamedSharding(mesh, P("x"))
a, b = jax.device_put((jnp.ones((8, 8)), jnp.ones(8)), (rows, flat))
