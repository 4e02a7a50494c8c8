# oracle: runs
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), ("x", "y"))
sharding = NamedSharding(mesh, P("x"))


@jax.jit
def f(a):
    return jax.lax.with_sharding_constraint(jnp.ones((6, 4)) * a, sharding)


y = f(1.0)
