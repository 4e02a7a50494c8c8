# oracle: stdout mean score: 1.0
import functools
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4,), ("batch",), axis_types=(AxisType.Auto,))


@functools.partial(jax.jit, out_shardings=NamedSharding(mesh, P("batch")))
def scores(weights, features):
    return jnp.tanh(features @ weights).sum(axis=-1) / 8.0


def evaluate(weights, features):
    return float(scores(weights, features).mean())


print("mean score:", round(evaluate(jnp.ones((16, 8)), jnp.ones((12, 16))), 3))
