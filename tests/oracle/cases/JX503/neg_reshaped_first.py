# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jnp.ones(8).reshape(4, 2)
y = jax.device_put(x, NamedSharding(mesh, P("x", None)))
