# oracle: stdout placed: ['tokens']
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


def load_inputs(batch=8, length=16):
    return {"tokens": jnp.zeros((batch, length), jnp.int32), "lengths": jnp.zeros((batch,), jnp.int32)}


def to_devices(inputs, mesh):
    sharding = NamedSharding(mesh, P("data", None))
    return {name: jax.device_put(array, sharding) for name, array in inputs.items() if array.ndim == 2}


mesh = jax.make_mesh((4,), ("data",))
print("placed:", sorted(to_devices(load_inputs(), mesh)))
