# oracle: devices=8
import os

import numpy as np
import torch
import torch_xla
import torch_xla.distributed.spmd as xs
import torch_xla.runtime as xr
from torch import nn

STEPS = int(os.environ.get("XLALENS_ORACLE_STEPS", "2"))
xr.use_spmd()
device = torch_xla.device()
n = xr.global_runtime_device_count()
mesh = xs.Mesh(np.arange(n), (n, 1), ("data", "model"))
model = nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(STEPS):
    x = torch.randn(16, 16).to(device)
    xs.mark_sharding(x, mesh, ("data", None))
    optimizer.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
