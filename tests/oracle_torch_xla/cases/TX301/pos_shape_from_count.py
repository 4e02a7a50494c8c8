# oracle: devices=8 raises=AssertionError
# oracle-message: Number of device IDs (8) must match mesh size (16)
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh_shape = (num_devices // 2, 4)
mesh = xs.Mesh(np.arange(num_devices), mesh_shape, ("x", "y"))  # error: TX301
