# oracle: devices=8 raises=ValueError
# oracle-message: Number of devices 8 must equal the product of mesh_shape (4, 4)
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr

xr.use_spmd()
device = torch_xla.device()
num_devices = xr.global_runtime_device_count()
mesh = xs.HybridMesh(ici_mesh_shape=(4, 4), axis_names=("x", "y"))  # error: TX301
