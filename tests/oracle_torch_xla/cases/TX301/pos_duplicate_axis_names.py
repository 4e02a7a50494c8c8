# oracle: devices=8 raises=AssertionError
# oracle-message: Axis names must be unique, got: ('x', 'x')
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
device_ids = np.array(range(num_devices))
mesh = xs.Mesh(device_ids, (4, 2), ("x", "x"))  # error: TX301
