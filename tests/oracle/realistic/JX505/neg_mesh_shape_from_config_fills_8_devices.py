# oracle: stdout ('fsdp', 2)
import os
from typing import NamedTuple

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax


class ParallelismConfig(NamedTuple):
    data: int = 2
    tensor: int = 2
    fsdp: int = 2

    @property
    def mesh_shape(self):
        return (self.data, self.tensor, self.fsdp)


def create_mesh(cfg):
    return jax.make_mesh(cfg.mesh_shape, ("data", "tensor", "fsdp"))


mesh = create_mesh(ParallelismConfig())
print(mesh.shape)
