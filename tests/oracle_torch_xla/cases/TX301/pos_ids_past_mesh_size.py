# oracle: devices=8 raises=AssertionError
# oracle-message: Device IDs must be less than mesh size (8), got: [1 2 3 4 5 6 7 8]
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(1, 9), (4, 2))  # error: TX301
