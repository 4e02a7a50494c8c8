# oracle: raises ValueError: One of pjit arguments with pytree key path b is incompatible
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ("x", "y"))
rows = NamedSharding(mesh, P("x", None))


def add(a, b):
    return a + b


f = jax.jit(add, in_shardings=(rows, rows))
y = f(jnp.ones((8, 8)), jnp.ones(8))  # error: JX503
