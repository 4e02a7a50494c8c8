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
mesh = xs.Mesh(np.arange(8), (4, 4), ("x", "y"))  # error: TX301
