# oracle: raises ValueError: Mesh requires the ndim of its first argument (`devices`) to equal the length
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ("a", "b"))  # error: JX505
