# oracle: stdout specs: ['data', 'data']
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def load_inputs(batch=8, length=16):
    return {"tokens": jnp.zeros((batch, length), jnp.int32), "mask": jnp.ones((batch, length), bool)}


def to_devices(inputs, mesh):
    sharding = NamedSharding(mesh, P("data", None))
    return {name: jax.device_put(array, sharding) for name, array in inputs.items()}


mesh = jax.make_mesh((4,), ("data",))
placed = to_devices(load_inputs(), mesh)
print("specs:", [placed[name].sharding.spec[0] for name in ("tokens", "mask")])
