# oracle: raises ValueError: One of device_put args is incompatible with its sharding annotation
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
bias = jax.device_put(jnp.zeros(8), NamedSharding(mesh, P("x", "y")))  # error: JX503
