# oracle: raises DeprecationWarning: jax.experimental.pjit.pjit has been deprecated
import warnings

import jax
import jax.experimental.pjit
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

warnings.simplefilter("error", DeprecationWarning)
mesh = jax.make_mesh((8,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))
batch_sharding = NamedSharding(mesh, P("data"))


def build_step(sharding):
    return jax.experimental.pjit.pjit(lambda x: x * 2, in_shardings=sharding, out_shardings=sharding)  # error: JX702


step = build_step(batch_sharding)
print(step(jnp.arange(16.0)).sum())
