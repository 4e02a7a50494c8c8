# oracle: stdout specs: [P('data',), P('data', None)]
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

SPECS = {"labels": P("data"), "tokens": P("data", None)}


def to_devices(inputs, mesh):
    return {name: jax.device_put(array, NamedSharding(mesh, SPECS[name])) for name, array in inputs.items()}


mesh = jax.make_mesh((4,), ("data",))
batch = {"labels": jnp.zeros((8,), jnp.int32), "tokens": jnp.zeros((8, 16), jnp.int32)}
placed = to_devices(batch, mesh)
print("specs:", [placed[name].sharding.spec for name in ("labels", "tokens")])
