# oracle: raises ValueError: Resource axis: z of P('z',) is not found in mesh: ('x', 'y').
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
with mesh:  # error: JX709
    y = jax.lax.with_sharding_constraint(jnp.ones((8, 4)), P("z"))  # error: JX501
