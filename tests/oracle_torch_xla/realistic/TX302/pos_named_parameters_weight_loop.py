# oracle: devices=8 raises=AssertionError
# oracle-message: Partition spec length (1) should be equal to the input rank (2).
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


def shard_weights(model, mesh):
    for name, param in model.named_parameters():
        if name.endswith("weight"):
            xs.mark_sharding(param, mesh, ("model",))  # error: TX302


xr.use_spmd()
n = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(n), (1, n), ("data", "model"))
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 16)).to(torch_xla.device())
shard_weights(model, mesh)
