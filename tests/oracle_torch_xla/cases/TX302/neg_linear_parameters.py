# oracle: devices=8
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
xs.mark_sharding(linear.weight, mesh, (None, "y"))
xs.mark_sharding(linear.bias, mesh, ("x",))
embedding = torch.nn.Embedding(100, 16).to(device)
xs.mark_sharding(embedding.weight, mesh, ("x", "y"))
