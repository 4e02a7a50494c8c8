# oracle: devices=8 raises=AssertionError
# oracle-message: Number of device IDs (9) must match the global number of devices (8)
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(9), (3, 3))  # error: TX301
