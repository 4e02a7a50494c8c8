# oracle: raises IndivisibleError: Sharding NamedSharding(mesh=Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto))
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
host = np.zeros((1, 128), dtype=np.float32)
x = jax.device_put(host, NamedSharding(mesh, P("x", None)))  # error: JX504
