# oracle: devices=8
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn

xr.use_spmd()
n = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(n), (n // 4, 4), ("data", "model"))
layer = nn.Linear(30, 10).to(torch_xla.device())
xs.mark_sharding(layer.weight, mesh, ("model", "data"))
