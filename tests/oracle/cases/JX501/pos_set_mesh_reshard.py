# oracle: raises ValueError: Resource axis: rows of P('rows',) is not found in mesh: ('x', 'y').
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
x = jnp.ones((8, 4))
with jax.set_mesh(mesh):
    y = jax.reshard(x, P("rows"))  # error: JX501
