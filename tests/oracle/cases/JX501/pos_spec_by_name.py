# oracle: raises ValueError: Resource axis: model of P('model',) is not found in mesh: ('data',).
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((8,), ("data",))
spec = P("model")
sharding = NamedSharding(mesh, spec)  # error: JX501
