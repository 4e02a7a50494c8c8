# oracle: raises NameError: Found an unbound axis name: stage
import os
from typing import NamedTuple

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P


class PipelineConfig(NamedTuple):
    num_stages: int = 4
    mesh_axes: tuple = ("pipe", "data")
    stage_axis: str = "stage"


def stage_forward(cfg):
    def forward(x):
        stage = jax.lax.axis_index(cfg.stage_axis)  # error: JX501
        return x * (stage + 1)

    return forward


cfg = PipelineConfig()
mesh = jax.make_mesh((cfg.num_stages, 2), cfg.mesh_axes, axis_types=(AxisType.Auto,) * 2)
run = jax.shard_map(stage_forward(cfg), mesh=mesh, in_specs=P("pipe"), out_specs=P("pipe"))
print(run(jnp.ones((8, 4)))[:, 0])
