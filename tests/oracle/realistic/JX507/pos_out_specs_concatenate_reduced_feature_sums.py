# oracle: stdout feature means shape: (64,)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

AXIS = "data"
NUM_FEATURES = 8


def feature_means(x):
    total = jax.lax.psum(jnp.sum(x, axis=0), AXIS)
    count = jax.lax.psum(x.shape[0], AXIS)
    return total / count


mesh = jax.make_mesh((8,), (AXIS,), axis_types=(AxisType.Auto,))
stats = jax.shard_map(feature_means, mesh=mesh, in_specs=P(AXIS, None), out_specs=P(AXIS))  # error: JX507
means = stats(jnp.ones((128, NUM_FEATURES)))
print("feature means shape:", means.shape)
