# oracle: raises ValueError: One of device_put args is incompatible
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
pair = jax.device_put([jnp.ones((8, 8)), jnp.ones(8)], NamedSharding(mesh, P("x", None)))  # error: JX503
