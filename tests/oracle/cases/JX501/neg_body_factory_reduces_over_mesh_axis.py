# oracle: stdout 1.0
import dataclasses
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class ParallelConfig:
    data_axis: str = "data"
    num_devices: int = 4


def make_normalizer(cfg):
    def normalize(scores):
        total = jax.lax.psum(jnp.sum(scores), cfg.data_axis)
        return scores / total

    return normalize


cfg = ParallelConfig()
mesh = jax.make_mesh((cfg.num_devices,), (cfg.data_axis,), axis_types=(AxisType.Auto,))
normalize = jax.shard_map(make_normalizer(cfg), mesh=mesh, in_specs=P("data"), out_specs=P("data"))
print(float(normalize(jnp.ones(8)).sum()))
