# oracle: raises ValueError: Resource axis: z of P(('x', 'z'),) is not found in mesh: ('x', 'y').
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
sharding = NamedSharding(mesh, P(("x", "z")))  # error: JX501
