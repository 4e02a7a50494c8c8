# oracle: runs
import warnings

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

warnings.simplefilter("error", DeprecationWarning)
mesh = jax.make_mesh((8,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))
sharding = NamedSharding(mesh, P("data"))
step = jax.jit(lambda x: jax.lax.with_sharding_constraint(x * 2, sharding), in_shardings=sharding)
print(step(jnp.arange(16.0)).sum())
