# oracle: raises ValueError: Sharding spec ('data',) implies that array axis 0 is partitioned 4 times, but does not evenly divide the dimension size 6
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def make_features():
    return [jnp.zeros((16, 8)), jnp.zeros((16, 4)), jnp.zeros((6, 4))]


def place(features, mesh):
    rows = NamedSharding(mesh, P("data", None))
    return [jax.device_put(feature, rows) for feature in features]  # error: JX504


mesh = jax.make_mesh((4,), ("data",))
print([f.shape for f in place(make_features(), mesh)])
