# oracle: devices=8
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


def build_mesh(num_devices, model_parallel=2):
    device_ids = np.array(range(num_devices))
    return xs.Mesh(device_ids, (num_devices // model_parallel, model_parallel), ("data", "model"))


xr.use_spmd()
mesh = build_mesh(xr.global_runtime_device_count())
model = nn.Linear(32, 32).to(torch_xla.device())
xs.mark_sharding(model.weight, mesh, ("model", None))
