# oracle: raises ValueError: One of device_put args is incompatible with its sharding annotation
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def load_inputs(batch=8, length=16, dim=32):
    return {
        "embeddings": jnp.zeros((batch, length, dim)),
        "mask": jnp.ones((batch, length), bool),
    }


def to_devices(inputs, mesh):
    sharding = NamedSharding(mesh, P("data", None, None))
    return {name: jax.device_put(array, sharding) for name, array in inputs.items()}  # error: JX503


mesh = jax.make_mesh((4,), ("data",))
placed = to_devices(load_inputs(), mesh)
print({name: array.sharding.spec for name, array in placed.items()})
