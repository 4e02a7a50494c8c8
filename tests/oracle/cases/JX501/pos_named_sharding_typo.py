# oracle: raises ValueError: Resource axis: batch of P('batch', None) is not found in mesh: ('data', 'model').
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("data", "model"))
sharding = NamedSharding(mesh, P("batch", None))  # error: JX501
