# oracle: raises DuplicateSpecError: A single NamedSharding spec specification can map every mesh axis to at most one positional dimension
import dataclasses
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class ShardingConfig:
    mesh_axes: tuple = ("fsdp",)
    fsdp_axis: str = "fsdp"
    tensor_axis: str = "fsdp"


def kernel_spec(cfg):
    return P(cfg.fsdp_axis, cfg.tensor_axis)


cfg = ShardingConfig()
mesh = jax.make_mesh((8,), cfg.mesh_axes)
kernel = jax.device_put(jnp.ones((256, 256)), NamedSharding(mesh, kernel_spec(cfg)))  # error: JX502
print(kernel.sharding.spec)
