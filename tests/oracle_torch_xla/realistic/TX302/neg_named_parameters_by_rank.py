# oracle: devices=8
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


def shard_weights(model, mesh):
    for name, param in model.named_parameters():
        if param.dim() == 2:
            xs.mark_sharding(param, mesh, ("model", None))
        else:
            xs.mark_sharding(param, mesh, (None,))


xr.use_spmd()
n = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(n), (1, n), ("data", "model"))
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 16)).to(torch_xla.device())
shard_weights(model, mesh)
