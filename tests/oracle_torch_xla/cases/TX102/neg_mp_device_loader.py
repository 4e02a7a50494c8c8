# oracle: graph-growth-per-step=0 executions-per-step=1
import os

import torch
import torch_xla

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])
device = torch_xla.device()
model = torch.nn.Linear(16, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(8 * STEPS, 16)), batch_size=8)
for (x,) in pl.MpDeviceLoader(loader, device):
    optimizer.zero_grad()
    loss = model(x).pow(2).mean()
    loss.backward()
    xm.optimizer_step(optimizer)
