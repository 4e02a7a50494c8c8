# oracle: raises ValueError: One of device_put args is incompatible with its sharding annotation
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
host = np.zeros((4,), dtype=np.float32)
x = jax.device_put(host, NamedSharding(mesh, P(None, None)))  # error: JX503
