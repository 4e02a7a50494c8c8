# oracle: raises ValueError: cannot reshape array of size 8 into shape (4,4)
import dataclasses
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax
import numpy as np
from jax.sharding import Mesh


@dataclasses.dataclass
class TopologyConfig:
    ici_data: int = 4
    ici_model: int = 4


def build_mesh(cfg):
    devices = np.array(jax.devices()).reshape(cfg.ici_data, cfg.ici_model)  # error: JX505
    return Mesh(devices, ("data", "model"))


mesh = build_mesh(TopologyConfig())
print(mesh.shape)
