# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jnp.pad(jnp.ones((6, 4)), ((0, 2), (0, 0)))
y = jax.device_put(x, NamedSharding(mesh, P("x")))
