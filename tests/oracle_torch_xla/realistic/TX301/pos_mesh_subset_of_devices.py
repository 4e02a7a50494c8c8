# oracle: devices=8 raises=AssertionError
# oracle-message: Number of device IDs (4) must match the global number of devices (8)
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn

xr.use_spmd()
num_devices = xr.global_runtime_device_count()
half = num_devices // 2
mesh = xs.Mesh(np.arange(half), (half,), ("data",))  # error: TX301
model = nn.Linear(16, 16).to(torch_xla.device())
x = torch.randn(8, 16).to(torch_xla.device())
xs.mark_sharding(x, mesh, ("data", None))
