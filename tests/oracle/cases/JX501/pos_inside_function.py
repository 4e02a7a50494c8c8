# oracle: raises ValueError: Resource axis: rows of P('rows',) is not found in mesh: ('x', 'y').
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))


def place(x):
    return jax.device_put(x, NamedSharding(mesh, P("rows")))  # error: JX501


place(jnp.ones((8, 4)))
