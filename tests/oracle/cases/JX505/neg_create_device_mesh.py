# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from jax.experimental import mesh_utils

mesh = Mesh(mesh_utils.create_device_mesh((8,)), ("x",))
