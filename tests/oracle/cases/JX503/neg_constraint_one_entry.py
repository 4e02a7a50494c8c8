# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
y = jax.lax.with_sharding_constraint(jnp.ones(8), NamedSharding(mesh, P(None)))
