# oracle: devices=8 raises=AssertionError
# oracle-message: Device IDs must be unique, got: [0 0 1 2 3 4 5 6]
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.Mesh([0, 0, 1, 2, 3, 4, 5, 6], (4, 2))  # error: TX301
