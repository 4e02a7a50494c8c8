# oracle: raises ValueError: One of device_put args is incompatible with its sharding annotation
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

FSDP = "fsdp"
TENSOR = "tensor"


def fsdp_spec(name):
    if name.endswith("kernel"):
        return P(FSDP, TENSOR)
    return P(FSDP, None)


def init_layer(d_in, d_out):
    return {"kernel": jnp.ones((d_in, d_out)), "bias": jnp.zeros(d_out)}


mesh = jax.make_mesh((4, 2), (FSDP, TENSOR))
layer = init_layer(64, 128)
shardings = {name: NamedSharding(mesh, fsdp_spec(name)) for name in layer}
layer = jax.device_put(layer, shardings)  # error: JX503
print(jax.tree.map(lambda a: a.sharding.spec, layer))
