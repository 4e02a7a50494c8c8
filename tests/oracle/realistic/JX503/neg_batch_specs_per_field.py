# oracle: stdout P('data',)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

CONFIG = {
    "mesh_shape": (8,),
    "mesh_axes": ("data",),
    "batch_specs": {"tokens": P("data", None), "labels": P("data")},
}


def make_batch(batch_size, seq_len):
    return {
        "tokens": jnp.zeros((batch_size, seq_len), jnp.int32),
        "labels": jnp.zeros((batch_size,), jnp.int32),
    }


def shard_batch(batch, mesh, specs):
    return {k: jax.device_put(v, NamedSharding(mesh, specs[k])) for k, v in batch.items()}


mesh = jax.make_mesh(CONFIG["mesh_shape"], CONFIG["mesh_axes"])
batch = shard_batch(make_batch(32, 128), mesh, CONFIG["batch_specs"])
print(batch["labels"].sharding.spec)
