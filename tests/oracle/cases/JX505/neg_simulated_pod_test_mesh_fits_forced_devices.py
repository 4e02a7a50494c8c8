# oracle: stdout {'data': 2, 'model': 4}
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import dataclasses

import jax


@dataclasses.dataclass(frozen=True)
class MeshConfig:
    data: int = 2
    model: int = 4


def build_mesh(cfg: MeshConfig):
    return jax.make_mesh((cfg.data, cfg.model), ("data", "model"))


print(dict(build_mesh(MeshConfig()).shape))
