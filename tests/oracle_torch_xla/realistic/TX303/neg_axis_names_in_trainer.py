# oracle: devices=8
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


class Trainer:
    def __init__(self):
        xr.use_spmd()
        n = xr.global_runtime_device_count()
        self.mesh = xs.Mesh(np.arange(n), (n // 2, 2), ("data", "model"))
        self.model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 32)).to(torch_xla.device())
        xs.mark_sharding(self.model[0].weight, self.mesh, ("model", None))
        xs.mark_sharding(self.model[2].weight, self.mesh, (None, "model"))


Trainer()
