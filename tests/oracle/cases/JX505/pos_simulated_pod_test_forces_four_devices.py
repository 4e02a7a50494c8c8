# oracle: raises ValueError: Number of devices 4 must be >= the product of mesh_shape (2, 4)
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import dataclasses

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec


@dataclasses.dataclass(frozen=True)
class MeshConfig:
    data: int = 2
    model: int = 4


def build_mesh(cfg: MeshConfig):
    return jax.make_mesh((cfg.data, cfg.model), ("data", "model"))  # error: JX505


def shard_batch(batch, mesh):
    return jax.device_put(batch, NamedSharding(mesh, PartitionSpec("data")))


mesh = build_mesh(MeshConfig())
print(shard_batch(jnp.ones((8, 16)), mesh).sharding)
