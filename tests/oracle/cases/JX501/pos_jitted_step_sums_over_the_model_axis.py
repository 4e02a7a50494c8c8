# oracle: raises AssertionError:
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P


def token_share(mask):
    per_row = jnp.sum(mask, axis=1)
    total = jax.lax.psum(jnp.sum(per_row), "model")  # error: JX501
    return per_row / total


mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Auto,))
token_count = jax.jit(jax.shard_map(token_share, mesh=mesh, in_specs=P("data"), out_specs=P("data")))
print(token_count(jnp.ones((32, 8))))
