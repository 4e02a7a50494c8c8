# oracle: raises IndivisibleError: Sharding NamedSharding(mesh=Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto)), spec=P('x',)
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
x = jax.device_put(jnp.ones((6, 4)), NamedSharding(mesh, P("x")))  # error: JX504
