# oracle: raises DuplicateSpecError: A single shardings specification can map every mesh axis to at most one positional dimension, but P('y', 'y') has duplicate entries for `y`
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
with mesh:  # error: JX709
    z = jax.lax.with_sharding_constraint(jnp.ones((8, 8)), P("y", "y"))  # error: JX502
