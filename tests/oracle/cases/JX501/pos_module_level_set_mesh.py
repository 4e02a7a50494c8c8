# oracle: raises ValueError: Resource axis: w of P(None, 'w') is not found in mesh: ('x', 'y').
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
jax.set_mesh(mesh)
x = jax.device_put(jnp.ones((8, 4)), P(None, "w"))  # error: JX501
