# oracle: devices=8 raises=AssertionError
# oracle-message: Number of axis names (1) must match mesh dimensions (2)
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(num_devices), (num_devices // 2, 2), ("data",))  # error: TX301
