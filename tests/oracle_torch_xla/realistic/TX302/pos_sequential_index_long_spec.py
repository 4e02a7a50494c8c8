# oracle: devices=8 raises=AssertionError
# oracle-message: Partition spec length (3) should be equal to the input rank (2).
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(num_devices), (num_devices // 4, 4), ("data", "model"))
mlp = nn.Sequential(nn.Linear(128, 512), nn.GELU(), nn.Linear(512, 128)).to(device)
xs.mark_sharding(mlp[0].weight, mesh, ("model", None, None))  # error: TX302
xs.mark_sharding(mlp[2].weight, mesh, (None, "model"))
