# oracle: raises ValueError: Mesh requires the ndim of its first argument (`devices`)
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(devices=np.array(jax.devices()).reshape(2, 4), axis_names=("x", "y", "z"))  # error: JX505
