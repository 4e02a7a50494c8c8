# oracle: raises ValueError: Mesh requires the ndim of its first argument (`devices`)
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from jax.experimental import mesh_utils

devices = mesh_utils.create_device_mesh((4, 2))
mesh = Mesh(devices, ("x",))  # error: JX505
