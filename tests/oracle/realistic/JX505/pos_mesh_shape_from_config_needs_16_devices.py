# oracle: raises ValueError: Number of devices 8 must be >= the product of mesh_shape (2, 2, 4)
import os
from typing import NamedTuple

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax


class ParallelismConfig(NamedTuple):
    data: int = 2
    tensor: int = 2
    fsdp: int = 4

    @property
    def mesh_shape(self):
        return (self.data, self.tensor, self.fsdp)


def create_mesh(cfg):
    return jax.make_mesh(cfg.mesh_shape, ("data", "tensor", "fsdp"))  # error: JX505


mesh = create_mesh(ParallelismConfig())
print(mesh.shape)
