# oracle: devices=8 raises=AssertionError
# oracle-message: Device IDs must be less than mesh size (8), got: [1 2 3 4 5 6 7 8]
import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn


def build_mesh(num_devices, model_parallel=2):
    device_ids = np.arange(1, num_devices + 1)
    return xs.Mesh(device_ids, (num_devices // model_parallel, model_parallel), ("data", "model"))  # error: TX301


xr.use_spmd()
mesh = build_mesh(xr.global_runtime_device_count())
model = nn.Linear(32, 32).to(torch_xla.device())
xs.mark_sharding(model.weight, mesh, ("model", None))
