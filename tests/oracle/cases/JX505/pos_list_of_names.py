# oracle: raises ValueError: Mesh requires the ndim of its first argument (`devices`)
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

devices = np.asarray(jax.devices()).reshape(2, 2, 2)
mesh = Mesh(devices, ["a", "b"])  # error: JX505
