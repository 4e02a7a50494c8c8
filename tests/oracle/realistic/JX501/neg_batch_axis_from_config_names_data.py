# oracle: stdout spec=P('data', None)
import dataclasses
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class ParallelConfig:
    mesh_shape: tuple = (4, 2)
    mesh_axes: tuple = ("data", "model")
    batch_axis: str = "data"
    model_axis: str = "model"


def build_shardings(cfg):
    mesh = jax.make_mesh(cfg.mesh_shape, cfg.mesh_axes)
    batch = NamedSharding(mesh, P(cfg.batch_axis, None))
    weights = NamedSharding(mesh, P(None, cfg.model_axis))
    return batch, weights


batch_sharding, weight_sharding = build_shardings(ParallelConfig())
tokens = jax.device_put(jnp.zeros((16, 128), jnp.int32), batch_sharding)
print(tokens.sharding)
