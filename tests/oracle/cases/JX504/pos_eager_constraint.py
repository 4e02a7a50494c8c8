# oracle: raises IndivisibleError: Sharding NamedSharding(mesh=Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto))
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
y = jax.lax.with_sharding_constraint(jnp.ones((10, 4)), NamedSharding(mesh, P("x")))  # error: JX504
