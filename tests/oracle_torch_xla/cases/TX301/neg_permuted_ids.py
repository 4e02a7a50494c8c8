# oracle: devices=8
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.Mesh([7, 6, 5, 4, 3, 2, 1, 0], (2, 4), ("x", "y"))
xs.mark_sharding(torch.randn(8, 4).to(device), mesh, ("x", "y"))
