# oracle: raises DeprecationWarning: `with mesh:` context manager has been deprecated
import warnings

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

warnings.simplefilter("error", DeprecationWarning)
mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def train(batch):
    with mesh:  # error: JX709
        return jax.jit(lambda x: x * 2, out_shardings=P("data"))(batch)


train(jnp.ones((8, 2)))
