# oracle: raises ValueError: One of pjit outputs with pytree key path result is incompatible with its sharding annotation
import functools
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4,), ("batch",), axis_types=(AxisType.Auto,))


@functools.partial(jax.jit, out_shardings=NamedSharding(mesh, P("batch", None)))
def pooled(features):
    return features.mean(axis=-1)


def summarize(features):
    return pooled(features)  # error: JX503


print(summarize(jnp.ones((8, 16))).shape)
