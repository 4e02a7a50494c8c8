# oracle: devices=8
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.Mesh(list(range(8)), (2, 2, 2), axis_names=("a", "b", "c"))
xs.mark_sharding(torch.randn(8, 4, 2).to(device), mesh, ("a", "b", "c"))
