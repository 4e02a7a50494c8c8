# oracle: devices=8 raises=AssertionError
# oracle-message: Axis names must be unique, got: ['x', 'x']
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(num_devices), (num_devices // 2, 2), ["x", "x"])  # error: TX301
