# oracle: stdout ('model', 2)
import dataclasses
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import numpy as np
from jax.sharding import Mesh


@dataclasses.dataclass
class TopologyConfig:
    ici_data: int = 4
    ici_model: int = 2


def build_mesh(cfg):
    devices = np.array(jax.devices()).reshape(cfg.ici_data, cfg.ici_model)
    return Mesh(devices, ("data", "model"))


mesh = build_mesh(TopologyConfig())
print(mesh.shape)
