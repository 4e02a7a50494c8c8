# oracle: raises ValueError: One of device_put args is incompatible with its sharding annotation
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

CONFIG = {"mesh_shape": (8,), "mesh_axes": ("data",), "batch_spec": P("data", None)}


def make_batch(batch_size, seq_len):
    return {
        "tokens": jnp.zeros((batch_size, seq_len), jnp.int32),
        "labels": jnp.zeros((batch_size,), jnp.int32),
    }


def shard_batch(batch, mesh, spec):
    return {k: jax.device_put(v, NamedSharding(mesh, spec)) for k, v in batch.items()}  # error: JX503


mesh = jax.make_mesh(CONFIG["mesh_shape"], CONFIG["mesh_axes"])
batch = shard_batch(make_batch(32, 128), mesh, CONFIG["batch_spec"])
print(batch["tokens"].sharding.spec)
