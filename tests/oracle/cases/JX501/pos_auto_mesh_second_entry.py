# oracle: raises ValueError: Resource axis: z of P(None, 'z') is not found in mesh: ('x', 'y').
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
sharding = NamedSharding(mesh, P(None, "z"))  # error: JX501
