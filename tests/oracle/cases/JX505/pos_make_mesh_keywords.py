# oracle: raises ValueError: Mesh requires the ndim of its first argument (`devices`)
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh(axis_shapes=(4, 2), axis_names=("x",))  # error: JX505
