# oracle: devices=8 raises=ValueError
# oracle-message: Axis name model is not defined in the given mesh
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.get_1d_mesh("data")
t = torch.randn(8, 4).to(device)
xs.mark_sharding(t, mesh, (None, "model"))  # error: TX303
