# oracle: devices=8 raises=AssertionError
# oracle-message: Partition spec length (1) should be equal to the input rank (2).
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(num_devices), (num_devices // 2, 2), ("x", "y"))
linear = torch.nn.Linear(32, 10).to(device)
xs.mark_sharding(linear.weight, mesh, ("y",))  # error: TX302
