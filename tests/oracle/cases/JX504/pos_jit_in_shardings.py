# oracle: raises IndivisibleError: Sharding NamedSharding(mesh=Mesh('x': 4, 'y': 2, axis_types=(Explicit, Explicit)), spec=P('x',)
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))


def double(a):
    return a * 2


step = jax.jit(double, in_shardings=NamedSharding(mesh, P("x")))
y = step(jnp.ones((6, 4)))  # error: JX504
