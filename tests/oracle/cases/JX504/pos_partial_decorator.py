# oracle: raises IndivisibleError: Sharding NamedSharding(mesh=Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto))
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from functools import partial

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))


@partial(jax.jit, in_shardings=NamedSharding(mesh, P(None, ("x", "y"))))
def total(a):
    return a.sum()


s = total(jnp.ones((4, 12)))  # error: JX504
