# oracle: graph-growth-per-step=0 executions-per-step=1
import os

import torch
import torch_xla
import torch_xla.distributed.parallel_loader as pl
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

STEPS = int(os.environ["XLALENS_ORACLE_STEPS"])


def device_batches(dataset, device, batch_size=8):
    yield from pl.MpDeviceLoader(DataLoader(dataset, batch_size=batch_size, drop_last=True), device)


def train(model, loader, optimizer, loss_fn):
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()


device = torch_xla.device()
model = nn.Linear(16, 4).to(device)
dataset = TensorDataset(torch.randn(8 * STEPS, 16), torch.randn(8 * STEPS, 4))
train(model, device_batches(dataset, device), torch.optim.SGD(model.parameters(), lr=0.01), nn.MSELoss())
